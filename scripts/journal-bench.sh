#!/bin/sh
# journal-bench.sh: what the rooms' journal costs one node. A throwaway
# PostgreSQL 15 with durable commits (fsync and synchronous_commit on, as
# a real deployment has them: scripts/test-pg.sh with PG_SETTINGS), one
# `sudokuar serve` on it, and `sudokuar dev loadgen` against it twice: with
# the journal (every move written before it is answered) and without
# (--journal=false). Each run prints loadgen's summary, then the server's
# and PostgreSQL's CPU per move over the games (from the first move to
# the end, so the puzzles made at the start are left out), the journal's
# commits, and the load average.
#
# PLAYERS, ROOMS, DURATION (default 5000, 1250, 60s) scale it; SOURCES
# is loadgen's --sources (default one loopback address per 20 players); SUDOKUAR
# is the binary (default bin/sudokuar: `make build`); RUNS (default
# "true false") the journal settings to run, in order.
set -eu
cd "$(dirname "$0")/.."
if [ -z "${SUDOKUAR_PG_URL:-}" ]; then
	PG_SETTINGS="-c max_connections=200" exec sh scripts/test-pg.sh sh "$0" "$@"
fi
SUDOKUAR=${SUDOKUAR:-bin/sudokuar}
PLAYERS=${PLAYERS:-5000}
ROOMS=${ROOMS:-1250}
DURATION=${DURATION:-60s}
RUNS=${RUNS:-"true false"}
# Players come from this many loopback addresses: 20 each, so that each
# address makes 5 rooms, under the server's per-address burst of rooms
# created even when a create is asked again.
SOURCES=${SOURCES:-$(((PLAYERS + 19) / 20))}
PORT=${PORT:-18190}
OUT=${OUT:-out/journal-bench}
mkdir -p "$OUT"
pg_host=$(printf '%s\n' "$SUDOKUAR_PG_URL" | sed -n 's/.*host=\([^ ]*\).*/\1/p')
pg_port=$(printf '%s\n' "$SUDOKUAR_PG_URL" | sed -n 's/.*port=\([0-9]*\).*/\1/p')

# cpu PID...: user+system CPU of the processes, in clock ticks.
cpu() {
	t=0
	for p in "$@"; do
		if [ -r "/proc/$p/stat" ]; then
			t=$((t + $(sed 's/^.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
		fi
	done
	echo "$t"
}
# stat FIELD: a number from the server's /api/rooms/stats.
stat() { curl -fs "http://127.0.0.1:$PORT/api/rooms/stats" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
hz=$(getconf CLK_TCK)
# pgpids: this PostgreSQL's processes (its postmaster and children).
pgpids() {
	pm=$(head -1 "$pg_host/data/postmaster.pid")
	echo "$pm $(pgrep -d ' ' -P "$pm")"
}

for journal in $RUNS; do
	psql -q "$SUDOKUAR_PG_URL" -c "DROP DATABASE IF EXISTS jbench WITH (FORCE)" -c "CREATE DATABASE jbench" >/dev/null 2>&1
	db="postgres://postgres@/jbench?host=$pg_host&port=$pg_port&sslmode=disable&pool_max_conns=${POOL:-32}"
	"$SUDOKUAR" serve --addr "127.0.0.1:$PORT" --db "$db" --node bench --journal="$journal" >"$OUT/serve-$journal.log" 2>&1 &
	srv=$!
	i=0
	until curl -fs "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then echo "journal-bench: serve does not answer:" >&2; tail "$OUT/serve-$journal.log" >&2; exit 1; fi
		sleep 0.1
	done
	"$SUDOKUAR" dev loadgen --addr "http://127.0.0.1:$PORT" --players "$PLAYERS" --rooms "$ROOMS" --duration "$DURATION" --sources "$SOURCES" >"$OUT/loadgen-$journal.txt" 2>&1 &
	gen=$!
	# The games start when the first move is made.
	until [ "$(stat moves)" -gt 0 ] 2>/dev/null; do
		if ! kill -0 $gen 2>/dev/null; then break; fi
		sleep 0.2
	done
	s0=$(cpu $srv) p0=$(cpu $(pgpids)) m0=$(stat moves)
	wait $gen || true
	s1=$(cpu $srv) p1=$(cpu $(pgpids)) m1=$(stat moves)
	commits=$(stat journalCommits) records=$(stat journalRecords)
	kill -TERM $srv
	wait $srv || true
	moves=$((m1 - m0))
	echo "journal=$journal: $(grep 'players=' "$OUT/loadgen-$journal.txt" | tail -1)"
	awk -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v m=$moves -v hz="$hz" -v c="${commits:-0}" -v r="${records:-0}" 'BEGIN {
		printf "  over %d moves: server CPU %.1f s (%.3f ms a move), PostgreSQL CPU %.1f s (%.3f ms a move); journal %d records in %d commits\n",
			m, s / hz, m ? 1000 * s / hz / m : 0, p / hz, m ? 1000 * p / hz / m : 0, r, c }'
	echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
done
