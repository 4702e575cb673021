#!/bin/sh
# livescore.sh: score `sudokuar live` on photos held up to a moving camera.
#
# usage: scripts/livescore.sh [SET.list ...]
#
# For each list of photos (one path a line; default: every *.list in
# $LIVESCORE_DIR), and each framing
#   near:   1280x720, the page filling 85% of the frame height
#   far:    1280x720, 55% (arm's length)
#   webcam:  640x480, 70%
# it makes a video with ../shared/tools/mkvideo (60 frames a photo; kept in
# $LIVESCORE_DIR as SET-FRAMING.avi and reused while SET-FRAMING.done is
# there), runs `sudokuar live --headless --json` on it, scores it with
# ../shared/tools/score_live.py, and prints one line per set and framing,
# then `scan`'s figure on the same photos as stills.
#
# Environment: LIVESCORE_DIR (default out/livescore), SUDOKUAR (the binary;
# default: built from this tree into bin/sudokuar), FRAMINGS (default
# "near far webcam"; WxH@SHARE for another, e.g. 1920x1080@0.35).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$root/../shared
[ -d "$shared/tools" ] || { echo "livescore: $shared/tools not found (../shared is not part of the repository)" >&2; exit 1; }
dir=${LIVESCORE_DIR:-$root/out/livescore}
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${SUDOKUAR:-}
if [ -z "$bin" ]; then
	(cd "$root" && go build -o bin/sudokuar ./cmd/sudokuar)
	bin=$root/bin/sudokuar
fi
mk=$tmp/mkvideo
(cd "$shared/tools/mkvideo" && go build -o "$mk" .)
lists="$*"
[ -n "$lists" ] || lists=$(ls "$dir"/*.list 2>/dev/null || true)
[ -n "$lists" ] || { echo "livescore: no photo lists given and none in $dir" >&2; exit 1; }
for list in $lists; do
	set=$(basename "$list" .list)
	for fr in ${FRAMINGS:-near far webcam}; do
		case $fr in
		near) W=1280 H=720 S=0.85 ;;
		far) W=1280 H=720 S=0.55 ;;
		webcam) W=640 H=480 S=0.70 ;;
		*x*@*) S=${fr#*@} W=${fr%%x*} H=${fr%@*} H=${H#*x} ;;
		*) echo "livescore: unknown framing $fr" >&2; exit 1 ;;
		esac
		v=$dir/$set-$fr
		if [ ! -f "$v.done" ]; then
			MKVIDEO_W=$W MKVIDEO_H=$H MKVIDEO_SCALE=$S "$mk" "$v.avi" 60 $(cat "$list") >"$tmp/mk.log" 2>&1 ||
				{ cat "$tmp/mk.log" >&2; exit 1; }
			touch "$v.done"
		fi
		"$bin" live --headless --json --video "$v.avi" >"$tmp/live.jsonl"
		line=$(python3 "$shared/tools/score_live.py" "$v.truth" <"$tmp/live.jsonl" | tail -1)
		printf '%-16s %-7s %s\n' "$set" "$fr" "$line"
	done
	"$bin" scan --json $(cat "$list") >"$tmp/scan.jsonl" || true
	SET=$set python3 - "$tmp/scan.jsonl" <<'PY'
import json, os, sys
def truth(photo):
    rows = open(os.path.splitext(photo)[0] + '.dat').read().split('\n')[2:]
    return ''.join(x.replace(' ', '') for x in rows if x.strip())
n = read = wrong = 0
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    n += 1
    t = truth(r['file'])
    if r.get('status') == 'solved' and r.get('solution'):
        if r.get('given', '').replace('.', '0') == t:
            read += 1
        elif not all(a in '0.' or a == b for a, b in zip(t, r['solution'])):
            wrong += 1
print('%-16s %-7s photos=%d read=%d wrong_solved=%d' % (os.environ.get('SET', ''), 'stills', n, read, wrong))
PY
done
