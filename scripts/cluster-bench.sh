#!/bin/sh
# cluster-bench.sh [SCENARIO...]: the figures of docs/scaling.md ("What it
# measured"), on this machine: three `sudokuar serve` nodes, PostgreSQL and
# the load generator all share it. Scenarios (default: all, in this order):
#
#   kill    3 nodes, 3,000 players in 750 rooms for 60 s; node a killed
#           with SIGKILL 20 s into the games and started again at 30 s
#   term    the same with SIGTERM (a clean stop: its rooms handed over)
#   quick   300 players ask for a quick match over 3 nodes at once; then
#           300 arriving over 20 s with the matchmaker's node killed at 10 s
#   single  1 node on PostgreSQL, 5,000 players in 1,250 rooms for 60 s
#
# It starts a throwaway PostgreSQL (scripts/test-pg.sh) unless
# SUDOKUAR_PG_URL is set, a fresh database per scenario, and prints each
# loadgen's report with the load average. Logs go to $OUT (default
# out/cluster-bench). SUDOKUAR is the binary (default bin/sudokuar, built
# by `make cluster-bench`). PLAYERS, ROOMS, DURATION, KILL_AT, RESTART_AT,
# QUICK, SINGLE_PLAYERS scale it down for a quick try; POOL sets each
# node's pool_max_conns.
set -eu
cd "$(dirname "$0")/.."
if [ -z "${SUDOKUAR_PG_URL:-}" ]; then
	# Durable commits (fsync on), as a real deployment has them, and
	# room for every node's connections.
	PG_SETTINGS="-c max_connections=400" exec sh scripts/test-pg.sh sh "$0" "$@"
fi
SUDOKUAR=${SUDOKUAR:-bin/sudokuar}
OUT=${OUT:-out/cluster-bench}
PLAYERS=${PLAYERS:-3000}
ROOMS=${ROOMS:-750}
DURATION=${DURATION:-60}
KILL_AT=${KILL_AT:-20}
RESTART_AT=${RESTART_AT:-30}
QUICK=${QUICK:-300}
SINGLE_PLAYERS=${SINGLE_PLAYERS:-5000}
BASE_PORT=${BASE_PORT:-18080}
# Each node's connections to PostgreSQL per pool (pgx's default is 4: too
# few for hundreds of rooms created at once with durable commits).
POOL=${POOL:-16}
# NODE_FLAGS: more flags for every node (e.g. --verbose: the handover's timings in its log).
NODE_FLAGS=${NODE_FLAGS:-}
# Loopback addresses the players come from: 200 keeps each address's
# rooms created (3,000 players: 4 rooms an address) within a household's
# budget, as players of many homes would be.
SOURCES=${SOURCES:-200}
mkdir -p "$OUT"
[ $# -gt 0 ] || set -- kill term quick single

# The server's socket folder and port, from the key=value form test-pg.sh sets.
pg_host=$(printf '%s\n' "$SUDOKUAR_PG_URL" | sed -n 's/.*host=\([^ ]*\).*/\1/p')
pg_port=$(printf '%s\n' "$SUDOKUAR_PG_URL" | sed -n 's/.*port=\([0-9]*\).*/\1/p')
pg_user=$(printf '%s\n' "$SUDOKUAR_PG_URL" | sed -n 's/.*user=\([^ ]*\).*/\1/p')

# fresh_db NAME: an empty database; prints its postgres:// URL.
fresh_db() {
	psql -q "$SUDOKUAR_PG_URL" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null
	echo "postgres://${pg_user:-postgres}@/$1?host=$pg_host&port=$pg_port&sslmode=disable&pool_max_conns=$POOL"
}

PIDS=""
# start_node NAME PORT DB: runs a node in the background, waits until it answers.
start_node() {
	"$SUDOKUAR" serve --addr "127.0.0.1:$2" --db "$3" --node "$1" --url "http://127.0.0.1:$2" $NODE_FLAGS >>"$OUT/node-$1.log" 2>&1 &
	eval "pid_$1=$!"
	PIDS="$PIDS $!"
	i=0
	until curl -fs "http://127.0.0.1:$2/api/health" >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then echo "cluster-bench: node $1 does not answer; its log:" >&2; tail -20 "$OUT/node-$1.log" >&2; exit 1; fi
		sleep 0.1
	done
}

# stop_all: ends every node this script started.
stop_all() {
	for p in $PIDS; do kill -9 "$p" 2>/dev/null || true; done
	for p in $PIDS; do wait "$p" 2>/dev/null || true; done
	PIDS=""
}
trap stop_all EXIT

# wait_for FILE TEXT: until the loadgen log says TEXT (or it ended).
wait_for() {
	until grep -q "$2" "$1" 2>/dev/null; do
		if ! kill -0 "$lg" 2>/dev/null; then return 1; fi
		sleep 0.2
	done
}

# leader: the node running the matchmaker (its stats say "leader":true), or a.
leader() {
	for n in a b c; do
		eval "port=\$port_$n"
		if curl -fs "http://127.0.0.1:$port/api/rooms/stats" 2>/dev/null | grep -q '"leader":true'; then echo "$n"; return; fi
	done
	echo "cluster-bench: no node says it leads the matchmaker; killing node a" >&2
	echo a
}

port_a=$((BASE_PORT + 1)) port_b=$((BASE_PORT + 2)) port_c=$((BASE_PORT + 3))
nodes="http://127.0.0.1:$port_a,http://127.0.0.1:$port_b,http://127.0.0.1:$port_c"

cluster() { # cluster DBNAME: three fresh nodes on a fresh database
	db=$(fresh_db "$1")
	: >"$OUT/node-a.log"; : >"$OUT/node-b.log"; : >"$OUT/node-c.log"
	start_node a $port_a "$db"
	start_node b $port_b "$db"
	start_node c $port_c "$db"
}

# fault SIGNAL: the kill/term scenario.
fault() {
	sig=$1
	log="$OUT/$sig.log"
	cluster "bench_$sig"
	echo "== $sig: 3 nodes, $PLAYERS players in $ROOMS rooms, ${DURATION} s; node a gets SIG$(echo "$sig" | tr a-z A-Z) at ${KILL_AT} s, started again at ${RESTART_AT} s"
	"$SUDOKUAR" dev loadgen --addr "$nodes" --players "$PLAYERS" --rooms "$ROOMS" --duration "${DURATION}s" --setup 5m --sources "$SOURCES" >"$log" 2>&1 &
	lg=$!
	if wait_for "$log" "rooms playing after"; then
		sleep "$KILL_AT"
		echo "   load before the fault: $(cut -d' ' -f1-3 /proc/loadavg)"
		case $sig in
		kill) kill -9 "$pid_a" ;;
		term)
			t0=$(date +%s%N)
			kill -TERM "$pid_a"
			wait "$pid_a" || echo "   node a exited with $?"
			echo "   node a stopped $((($(date +%s%N) - t0) / 1000000)) ms after SIGTERM"
			;;
		esac
		sleep $((RESTART_AT - KILL_AT))
		start_node a $port_a "$db"
	fi
	wait "$lg" || echo "   loadgen exited with $?"
	echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	sed 's/^/   /' "$log"
	stop_all
}

quick() {
	cluster bench_quick
	echo "== quick: $QUICK players ask for a quick match at once, spread over 3 nodes"
	"$SUDOKUAR" dev loadgen --addr "$nodes" --quick "$QUICK" 2>&1 | sed 's/^/   /'
	echo "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
	l=$(leader)
	log="$OUT/quick-failover.log"
	echo "== quick, leader killed: $QUICK players arriving over 20 s; the matchmaker's node ($l) killed with SIGKILL at 10 s"
	"$SUDOKUAR" dev loadgen --addr "$nodes" --quick "$QUICK" --arrive 20s >"$log" 2>&1 &
	lg=$!
	sleep 10
	eval "kill -9 \$pid_$l"
	echo "   node $l killed at $(date -u +%T)"
	wait "$lg" || echo "   loadgen exited with $?"
	sed 's/^/   /' "$log"
	echo "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
	stop_all
}

single() {
	db=$(fresh_db bench_single)
	: >"$OUT/node-a.log"
	start_node a $port_a "$db"
	echo "== single: 1 node on PostgreSQL, $SINGLE_PLAYERS players in $((SINGLE_PLAYERS / 4)) rooms, ${DURATION} s"
	"$SUDOKUAR" dev loadgen --addr "http://127.0.0.1:$port_a" --players "$SINGLE_PLAYERS" --rooms $((SINGLE_PLAYERS / 4)) --duration "${DURATION}s" --setup 5m --sources "$SOURCES" 2>&1 | sed 's/^/   /'
	echo "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
	stop_all
}

echo "cluster-bench: $SUDOKUAR, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), PostgreSQL at $pg_host"
for s in "$@"; do
	case $s in
	kill | term) fault "$s" ;;
	quick) quick ;;
	single) single ;;
	*) echo "cluster-bench: unknown scenario $s (kill, term, quick, single)" >&2; exit 2 ;;
	esac
done
