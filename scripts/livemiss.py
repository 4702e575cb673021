#!/usr/bin/env python3
"""Why live missed each page of a mkvideo video.

usage: sudokuar live --headless --json --video V.avi | scripts/livemiss.py V.truth

Per photo segment not read (as ../shared/tools/score_live.py counts it: some
recognition with the exact givens, solved), one line: the cause, the
recognitions in the segment, how many found a grid, their mean cell side
(cell_px), the fewest cells any vote was off by (lost: a given read empty,
extra: an empty cell read as a given, wrong: another digit), the statuses,
how many frames alone read the exact givens (own) and how many times fusion
read a mean of two views or more, exactly. Causes, first that applies:
  no grid            no recognition found a grid
  gate held          a vote had the exact givens, the gate showed no solution
                     (its statuses given: move closer, check cells, reading ...)
  vote never settles a frame read the exact givens alone, no vote did
  wrong grid         every vote off by more than 8 cells (corners, a sub-grid)
  reader wrong       the closest vote has a wrong digit
  cells lost         ... a given read empty
  extra givens       ... only empty cells read as givens (or the truth lacks them)
Last line: the count per cause."""
import collections, json, os, sys


def truth_of(photo):
    rows = open(os.path.splitext(photo)[0] + '.dat').read().split('\n')[2:]
    return ''.join(x.replace(' ', '') for x in rows if x.strip())


def off(g, t):
    lost = sum(1 for a, b in zip(g, t) if a == '0' and b != '0')
    extra = sum(1 for a, b in zip(g, t) if a != '0' and b == '0')
    wrong = sum(1 for a, b in zip(g, t) if a != '0' and b != '0' and a != b)
    return lost, extra, wrong


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    segs = [(int(a), int(b), p.strip()) for a, b, p in (l.split(None, 2) for l in open(sys.argv[1]))]
    ev = []
    for line in sys.stdin:
        try:
            ev.append(json.loads(line))
        except ValueError:
            pass
    causes = collections.Counter()
    for a, b, p in segs:
        t = truth_of(p)
        rs = [r for r in ev if a <= r.get('frame', -1) <= b]
        if any(r.get('given') == t and r.get('status') == 'solved' for r in rs):
            continue
        found = sum(1 for r in rs if r.get('found'))
        held = sorted({r['status'] for r in rs if r.get('given') == t})
        own = sum(1 for r in rs if (r.get('own') or {}).get('given') == t)
        fused = [r['fused'] for r in rs if (r.get('fused') or {}).get('views', 0) >= 2]
        px = [r['cell_px'] for r in rs if r.get('cell_px')]
        best = min((off(r['given'], t) for r in rs if len(r.get('given') or '') == len(t)), key=sum, default=None)
        if found == 0:
            cause = 'no grid'
        elif held:
            cause = 'gate held (%s)' % ', '.join(held)
        elif own:
            cause = 'vote never settles'
        elif best is None or sum(best) > 8:
            cause = 'wrong grid'
        elif best[2]:
            cause = 'reader wrong'
        elif best[0]:
            cause = 'cells lost'
        else:
            cause = 'extra givens'
        causes[cause.split(' (')[0]] += 1
        st = collections.Counter(r.get('status') for r in rs)
        print('%-22s %-34s recs=%d found=%d cell_px=%.1f off(lost,extra,wrong)=%s own=%d fused=%d/%d %s' % (
            os.path.basename(p), cause, len(rs), found, sum(px) / len(px) if px else 0, best, own,
            sum(1 for f in fused if f.get('given') == t), len(fused), dict(st)))
    print('causes:', dict(causes))


main()
