#!/bin/sh
# test-pg.sh COMMAND...: start a throwaway PostgreSQL cluster in a temp
# folder (unix socket only, no TCP port, fsync off), run COMMAND with
# SUDOKUAR_PG_URL pointing at it, then stop the cluster and delete it.
# PG_SETTINGS replaces the server settings (default: fsync and synchronous
# commits off, for speed; scripts/cluster-bench.sh keeps them on).
# initdb refuses to run as root, so as root the cluster belongs to the
# postgres user (Debian's postgresql package creates it).
set -eu
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	echo "test-pg: no PostgreSQL server found (Debian: apt-get install postgresql)" >&2
	exit 2
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/sudokuar-pg.XXXXXX")
chmod 755 "$dir"
as=""
if [ "$(id -u)" = 0 ]; then
	chown postgres "$dir"
	as="runuser -u postgres --"
fi
stop() {
	$as "$PGBIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
if ! $as "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
	cat "$dir/initdb.log" >&2
	exit 1
fi
port=$((20000 + $$ % 20000))
if ! $as "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
	-o "-c listen_addresses= -k $dir -p $port ${PG_SETTINGS-"-c fsync=off -c synchronous_commit=off -c full_page_writes=off"}" start >/dev/null; then
	cat "$dir/server.log" >&2
	exit 1
fi
echo "test-pg: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') in $dir"
SUDOKUAR_PG_URL="host=$dir port=$port user=postgres dbname=postgres sslmode=disable"
export SUDOKUAR_PG_URL
"$@"
