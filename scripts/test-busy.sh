#!/bin/sh
# test-busy.sh RUNS: run `make test` RUNS times in a row, each from a cold
# test cache, printing one line per run (exit status, seconds, load) and
# exiting non-zero if any run failed; each run's output is kept in
# out/test-busy/. `make test-busy` runs it under scripts/under-load.sh
# with two busy loops at normal priority, so a test that fails only when
# the machine is busy fails here.
set -u
runs=${1:?usage: test-busy.sh RUNS}
GO=${GO:-go}
mkdir -p out/test-busy
failed=0
i=1
while [ "$i" -le "$runs" ]; do
	"$GO" clean -testcache
	t0=$(date +%s)
	if make --no-print-directory test >"out/test-busy/run$i.log" 2>&1; then rc=0; else rc=$?; failed=$((failed + 1)); fi
	echo "test-busy: run $i/$runs exit $rc, $(($(date +%s) - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg) (out/test-busy/run$i.log)"
	i=$((i + 1))
done
echo "test-busy: $((runs - failed))/$runs runs passed beside ${LOAD_LOOPS:-2} busy loops on $(nproc) cores"
[ "$failed" -eq 0 ]
