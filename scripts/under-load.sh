#!/bin/sh
# under-load.sh COMMAND...: run COMMAND (e.g. go test -count=1 ./rooms)
# while busy loops keep the cores loaded, to show whether a test waits for
# events or races the clock. LOAD_LOOPS sets the number of loops (default
# 2) and LOAD_NICE their niceness (default 19, the lowest priority; 0
# makes them compete with COMMAND as equals). They are stopped when COMMAND ends
# (or the script is interrupted), and COMMAND's exit status is returned.
set -u
if [ $# -eq 0 ]; then
	echo "usage: scripts/under-load.sh COMMAND..." >&2
	exit 2
fi
pids=""
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap 'stop; exit 130' INT TERM
i=0
while [ "$i" -lt "${LOAD_LOOPS:-2}" ]; do
	nice -n "${LOAD_NICE:-19}" sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
"$@"
rc=$?
stop
exit $rc
