#!/usr/bin/env bash
# A real streaming read replica of the chroot PostgreSQL that scripts/services-up.sh runs: a second cluster in
# the same debootstrap root, made by `pg_basebackup -R` from the primary and started on a free port of its own.
#
#   eval "$(scripts/pg-replica.sh up JDBC_URL_OF_PRIMARY)"   # exports SLUICE_DB_READ_URL (same database, the replica)
#   scripts/pg-replica.sh down                              # stops the replica
#
# The replica is taken fresh on each `up` (a few seconds for a test database) and is read-only (hot standby).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
RUN_DIR="$CACHE_DIR/run"
bin=/usr/lib/postgresql/17/bin
data=/var/lib/sluice-pg-replica-${SLUICE_REPLICA_NAME:-test}

log() { echo "[pg-replica] $*" >&2; }
die() { echo "[pg-replica] ERROR: $*" >&2; exit 2; }
as_postgres() { chroot "$ROOT" su postgres -s /bin/sh -c "$1"; }

up() {
  local primary="$1" port db rport
  [ -f "$ROOT/.sluice-ready" ] || die "no chroot PostgreSQL (scripts/services-up.sh builds it)"
  port="$(echo "$primary" | sed -n 's#^jdbc:postgresql://127\.0\.0\.1:\([0-9]*\)/.*#\1#p')"
  db="$(echo "$primary" | sed -n 's#^jdbc:postgresql://[^/]*/\([^?]*\).*#\1#p')"
  [ -n "$port" ] && [ -n "$db" ] || die "the primary must be the chroot PostgreSQL on 127.0.0.1 (jdbc:postgresql://127.0.0.1:PORT/DB...)"
  down quiet
  rm -rf "$ROOT$data"
  mkdir -p "$ROOT$data" && chroot "$ROOT" chown postgres:postgres "$data" && chmod 700 "$ROOT$data"
  as_postgres "$bin/pg_basebackup -h 127.0.0.1 -p $port -U postgres -D $data -R -X stream -c fast --no-sync" >&2 \
    || die "pg_basebackup from 127.0.0.1:$port failed"
  rport="$(sluice_free_port)"
  # a hot standby needs at least the primary's max_connections
  local maxconn; maxconn="$(as_postgres "$bin/psql -h 127.0.0.1 -p $port -U postgres -d $db -tAc 'show max_connections'")"
  as_postgres "$bin/pg_ctl -D $data -l $data/server.log -w -t 60 -o '-c listen_addresses=127.0.0.1 -p $rport -c max_connections=$maxconn -c fsync=off -c hot_standby=on' start" >&2 \
    || { tail -20 "$ROOT$data/server.log" >&2; die "the replica did not start on 127.0.0.1:$rport"; }
  as_postgres "$bin/psql -h 127.0.0.1 -p $rport -U postgres -d $db -tAc 'select pg_is_in_recovery()'" | grep -q t \
    || die "127.0.0.1:$rport is not a standby"
  echo "$rport" >"$RUN_DIR/pg-replica.port"
  log "streaming replica of 127.0.0.1:$port on 127.0.0.1:$rport (hot standby)"
  echo "export SLUICE_DB_READ_URL='jdbc:postgresql://127.0.0.1:$rport/$db?user=postgres'"
}

down() {
  if [ -f "$ROOT$data/postmaster.pid" ]; then
    as_postgres "$bin/pg_ctl -D $data -m fast -w stop" >/dev/null 2>&1 || true
    [ "${1:-}" = quiet ] || log "replica stopped"
    rm -f "$RUN_DIR/pg-replica.port"
  fi
}

case "${1:-}" in
  up) up "${2:?JDBC URL of the primary}" ;;
  down) down ;;
  *) die "usage: $0 up JDBC_URL | down" ;;
esac
