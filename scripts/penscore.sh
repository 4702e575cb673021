#!/bin/sh
# penscore.sh: score reading pen-filled pages, the figures of the README's
# pen row (docs/performance.md, "Pen pages").
#
# usage: scripts/penscore.sh [SET.list]
#
# The photos of wicht-mixed-train named in SET.list (default: the held-out
# testdata/live/wicht-holdout.list; one path a line, only the base names
# count) are scored by ../shared/tools/score_pen.py: as stills through
# `sudokuar scan --json`, then held up in motion in the near (1280x720,
# 85%) and webcam (640x480, 70%) framings of ../shared/tools/mkvideo,
# through `sudokuar live --headless --realtime --json` (30 fps, as a camera
# gives frames). Live varies from run to run: RUNS (default 1) runs each.
#
# Environment: PENSCORE_DIR (default out/penscore: the videos, reused),
# SUDOKUAR (the binary; default: built from this tree into bin/sudokuar),
# RUNS.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$root/../shared
mixed=$shared/datasets/wicht-mixed-train
[ -d "$mixed" ] || { echo "penscore: $mixed not found (../shared is not part of the repository)" >&2; exit 1; }
list=${1:-$root/testdata/live/wicht-holdout.list}
[ -f "$list" ] || { echo "penscore: $list: no such list" >&2; exit 1; }
dir=${PENSCORE_DIR:-$root/out/penscore}
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${SUDOKUAR:-}
if [ -z "$bin" ]; then
	(cd "$root" && go build -o bin/sudokuar ./cmd/sudokuar)
	bin=$root/bin/sudokuar
fi
set=$(basename "$list" .list)
pages=$tmp/pages
for n in $(sed 's#.*/##' "$list"); do
	[ -f "$mixed/$n" ] && echo "$mixed/$n"
done >"$pages"
[ -s "$pages" ] || { echo "penscore: none of $list's photos is in $mixed" >&2; exit 1; }
echo "$set: $(wc -l <"$pages") pen pages"
"$bin" scan --json --pen embedded $(cat "$pages") >"$tmp/scan.jsonl" || true
printf '%-8s %s\n' stills "$(python3 "$shared/tools/score_pen.py" --stills <"$tmp/scan.jsonl" | tail -1)"
mk=$tmp/mkvideo
(cd "$shared/tools/mkvideo" && go build -o "$mk" .)
for fr in near webcam; do
	case $fr in
	near) W=1280 H=720 S=0.85 ;;
	webcam) W=640 H=480 S=0.70 ;;
	esac
	v=$dir/$set-$fr
	if [ ! -f "$v.done" ]; then
		MKVIDEO_W=$W MKVIDEO_H=$H MKVIDEO_SCALE=$S "$mk" "$v.avi" 60 $(cat "$pages") >"$tmp/mk.log" 2>&1 ||
			{ cat "$tmp/mk.log" >&2; exit 1; }
		touch "$v.done"
	fi
	r=0
	while [ "$r" -lt "${RUNS:-1}" ]; do
		r=$((r + 1))
		"$bin" live --headless --realtime --json --pen embedded --video "$v.avi" >"$tmp/live.jsonl"
		printf '%-8s %s\n' "$fr" "$(python3 "$shared/tools/score_pen.py" --live "$v.truth" <"$tmp/live.jsonl" | tail -1)"
	done
done
