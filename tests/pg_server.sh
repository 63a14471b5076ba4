# A PostgreSQL server of a test's own, for the tests that check corank's order
# against PostgreSQL's. Sourced, after `set -euo pipefail`:
#   source tests/pg_server.sh NAME PORT [CONF_LINE...]
# NAME names the test in its skip messages; the server listens on a socket in
# its own directory (PORT only names the socket, so it clashes with nothing),
# with the C locale, no durability, and CONF_LINEs added to postgresql.conf.
# Exits 77 (skipped) without PostgreSQL's server programs (Debian:
# postgresql; PG_BINDIR names their directory elsewhere), or as root without
# a postgres user to run the server (initdb refuses root). Sets bindir, work
# (a scratch directory) and pg (the server's), both removed on exit with the
# server stopped; exports PATH and PG* for psql; defines sql (psql, unaligned,
# stopping at the first error); leaves the shell in $pg.
pg_name=$1 pg_port=$2
shift 2

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
  bindir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)  # the newest
  [ -x "$bindir/initdb" ] || bindir=$(dirname "$(command -v initdb 2>/dev/null || echo .)")
fi
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ] || [ ! -x "$bindir/psql" ]; then
  echo "$pg_name: skipped: no PostgreSQL server programs (initdb, pg_ctl, psql)"
  exit 77
fi
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "$pg_name: skipped: running as root and there is no postgres user to run the server"
    exit 77
  fi
  as_server=(runuser -u postgres --)
fi

work=$(mktemp -d)
pg=$(mktemp -d)  # data directory and socket, the server's own
started=0
cleanup() {
  if ((started)); then
    "${as_server[@]}" "$bindir/pg_ctl" -D "$pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work" "$pg"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
[ ${#as_server[@]} -eq 0 ] || chown postgres: "$pg"
cd "$pg"  # a directory the server's user may enter

# The C locale: text compares as bytes (memcmp), as corank compares it.
"${as_server[@]}" "$bindir/initdb" -D "$pg/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
  >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; exit 1; }
{
  printf '%s\n' "listen_addresses = ''" "unix_socket_directories = '$pg'" "port = $pg_port" "fsync = off" \
    "synchronous_commit = off" "full_page_writes = off"
  [ $# -eq 0 ] || printf '%s\n' "$@"
} >>"$pg/data/postgresql.conf"
started=1
if ! "${as_server[@]}" "$bindir/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 start >/dev/null; then
  cat "$pg/server.log" >&2
  exit 1
fi
export PATH=$bindir:$PATH PGHOST=$pg PGPORT=$pg_port PGUSER=postgres PGDATABASE=postgres
sql() { psql --no-psqlrc -v ON_ERROR_STOP=1 -At "$@"; }
