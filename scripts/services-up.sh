#!/usr/bin/env bash
# Gives a real PostgreSQL 17 + pgvector and a Redis on loopback for tests and benchmarks, and
# prints their URLs as shell exports. Idempotent: a second run reuses what the first started.
#
#   eval "$(scripts/services-up.sh)"      # exports SLUICE_DB_URL, SLUICE_REDIS_URL
#   scripts/services-down.sh               # stops what this script started
#
# Order of preference:
#   1. SLUICE_DB_URL / SLUICE_REDIS_URL already set  -> used as they are.
#   2. A Docker engine                                -> docker compose (postgres + redis services).
#   3. Debian, root, no Docker engine                 -> PostgreSQL 17 + pgvector in a debootstrap
#      chroot cached under $SLUICE_CACHE_DIR (default ~/.cache/sluice) on port $SLUICE_PG_PORT;
#      redis-server (installed from Debian if missing) on $SLUICE_REDIS_PORT. Both bind 127.0.0.1
#      only. Unset ports are picked free below the ephemeral range (scripts/lib/common.sh) and
#      remembered in $SLUICE_CACHE_DIR/run, so a second run finds the servers the first started.
#   4. Anything else                                  -> a clear message and exit 2.
#
# SLUICE_FRESH_DB=NAME (chroot mode): drop and re-create database NAME and point SLUICE_DB_URL at it,
# so a test run starts from an empty schema.
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/lib/common.sh"

CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
RUN_DIR="$CACHE_DIR/run"
mkdir -p "$CACHE_DIR" "$RUN_DIR"

log() { echo "[services-up] $*" >&2; }
die() { echo "[services-up] ERROR: $*" >&2; exit 2; }

# the port a server of ours runs on: the one given, else the one remembered from the run that
# started it, else a free one (remembered once the server answers)
remembered_port() {  # $1 name (pg|redis), $2 given port or empty
  if [ -n "$2" ]; then echo "$2"; return; fi
  if [ -s "$RUN_DIR/$1.port" ]; then cat "$RUN_DIR/$1.port"; return; fi
  sluice_free_port
}

docker_engine() { command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; }

pg_via_chroot() {
  [ "$(id -u)" = 0 ] || die "no Docker engine and not root: set SLUICE_DB_URL to a PostgreSQL 17 with pgvector"
  [ -f /etc/debian_version ] || die "no Docker engine and not Debian: set SLUICE_DB_URL to a PostgreSQL 17 with pgvector"
  if [ ! -f "$ROOT/.sluice-ready" ]; then
    command -v debootstrap >/dev/null 2>&1 || {
      log "installing debootstrap"
      apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
    }
    log "building PostgreSQL 17 + pgvector root in $ROOT (once, about a minute)"
    rm -rf "$ROOT.tmp"
    debootstrap --variant=minbase --include=postgresql-17,postgresql-17-pgvector \
      trixie "$ROOT.tmp" http://deb.debian.org/debian >"$CACHE_DIR/debootstrap.log" 2>&1 \
      || { tail -20 "$CACHE_DIR/debootstrap.log" >&2; die "debootstrap failed (log: $CACHE_DIR/debootstrap.log)"; }
    rm -rf "$ROOT" && mv "$ROOT.tmp" "$ROOT"
    touch "$ROOT/.sluice-ready"
  fi
  local bin=/usr/lib/postgresql/17/bin data=/var/lib/sluice-pg
  local PG_PORT
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc" 2>/dev/null || true
  mkdir -p "$ROOT/dev/shm" "$ROOT/run/postgresql"
  mountpoint -q "$ROOT/dev/shm" || mount -t tmpfs shm "$ROOT/dev/shm" 2>/dev/null || true
  [ -e "$ROOT/dev/null" ] || mknod -m 666 "$ROOT/dev/null" c 1 3
  [ -e "$ROOT/dev/urandom" ] || mknod -m 666 "$ROOT/dev/urandom" c 1 9
  chroot "$ROOT" chown postgres:postgres /run/postgresql
  if [ ! -f "$ROOT$data/PG_VERSION" ]; then
    log "initdb"
    mkdir -p "$ROOT$data" && chroot "$ROOT" chown postgres:postgres "$data"
    chroot "$ROOT" su postgres -s /bin/sh -c "$bin/initdb -D $data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
  fi
  if chroot "$ROOT" su postgres -s /bin/sh -c "$bin/pg_ctl -D $data status" >/dev/null 2>&1; then
    PG_PORT="$(sed -n 4p "$ROOT$data/postmaster.pid")"   # line 4 of postmaster.pid: the port it listens on
    [ -z "${SLUICE_PG_PORT:-}" ] || [ "$SLUICE_PG_PORT" = "$PG_PORT" ] \
      || die "the cached PostgreSQL already runs on port $PG_PORT, not SLUICE_PG_PORT=$SLUICE_PG_PORT (scripts/services-down.sh stops it)"
  else
    PG_PORT="$(remembered_port pg "${SLUICE_PG_PORT:-}")"
    if sluice_port_in_use "$PG_PORT"; then
      [ -z "${SLUICE_PG_PORT:-}" ] || die "port $PG_PORT (SLUICE_PG_PORT) is taken by another program"
      PG_PORT="$(sluice_free_port)"
    fi
    log "starting PostgreSQL 17 on 127.0.0.1:$PG_PORT"
    chroot "$ROOT" su postgres -s /bin/sh -c \
      "$bin/pg_ctl -D $data -l /var/lib/sluice-pg/server.log -w -t 60 -o '-c listen_addresses=127.0.0.1 -p $PG_PORT -c max_connections=500 -c fsync=off -c synchronous_commit=off' start" >&2 \
      || { tail -20 "$ROOT$data/server.log" >&2; die "PostgreSQL did not start on 127.0.0.1:$PG_PORT (log: $ROOT$data/server.log)"; }
    echo chroot >"$RUN_DIR/pg.mode"
  fi
  chroot "$ROOT" su postgres -s /bin/sh -c "$bin/psql -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -tAc 'select 1'" 2>/dev/null | grep -q 1 \
    || die "PostgreSQL does not answer on 127.0.0.1:$PG_PORT"
  echo "$PG_PORT" >"$RUN_DIR/pg.port"
  local db="${SLUICE_FRESH_DB:-sluice}"
  if [ -n "${SLUICE_FRESH_DB:-}" ]; then
    chroot "$ROOT" su postgres -s /bin/sh -c "$bin/dropdb -h 127.0.0.1 -p $PG_PORT -U postgres --if-exists --force $db" >&2
  fi
  chroot "$ROOT" su postgres -s /bin/sh -c \
    "$bin/psql -h 127.0.0.1 -p $PG_PORT -U postgres -tAc \"select 1 from pg_database where datname='$db'\" | grep -q 1 || $bin/createdb -h 127.0.0.1 -p $PG_PORT -U postgres $db" >&2
  chroot "$ROOT" su postgres -s /bin/sh -c "$bin/psql -h 127.0.0.1 -p $PG_PORT -U postgres -d $db -qc 'create extension if not exists vector'" >&2
  echo "jdbc:postgresql://127.0.0.1:$PG_PORT/$db?user=postgres"
}

redis_local() {
  command -v redis-server >/dev/null 2>&1 || {
    [ "$(id -u)" = 0 ] || die "redis-server missing and not root: set SLUICE_REDIS_URL"
    log "installing redis-server"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >&2
  }
  local REDIS_PORT
  REDIS_PORT="$(remembered_port redis "${SLUICE_REDIS_PORT:-}")"
  # ours when its pid file names a live redis-server answering on that port
  if [ -f "$RUN_DIR/redis.mode" ] && kill -0 "$(cat "$RUN_DIR/redis.pid" 2>/dev/null || echo 0)" 2>/dev/null \
     && redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
    echo "redis://127.0.0.1:$REDIS_PORT"; return
  fi
  if sluice_port_in_use "$REDIS_PORT"; then
    [ -z "${SLUICE_REDIS_PORT:-}" ] || die "port $REDIS_PORT (SLUICE_REDIS_PORT) is taken by another program"
    REDIS_PORT="$(sluice_free_port)"
  fi
  log "starting redis-server on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir "$RUN_DIR" --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" >&2
  local up=""
  for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && { up=1; break; }; sleep 0.1; done
  [ -n "$up" ] || { tail -5 "$RUN_DIR/redis.log" >&2; die "redis-server did not answer on 127.0.0.1:$REDIS_PORT (log: $RUN_DIR/redis.log)"; }
  echo local >"$RUN_DIR/redis.mode"
  echo "$REDIS_PORT" >"$RUN_DIR/redis.port"
  echo "redis://127.0.0.1:$REDIS_PORT"
}

DB_URL="${SLUICE_DB_URL:-}"
REDIS_URL="${SLUICE_REDIS_URL:-}"
if [ -z "$DB_URL" ] || [ -z "$REDIS_URL" ]; then
  if docker_engine; then
    log "Docker engine found: docker compose up -d postgres redis"
    docker compose -f "$(dirname "$0")/../docker-compose.yml" up -d --wait postgres redis >&2
    echo compose >"$RUN_DIR/compose.mode"
    DB_URL="${DB_URL:-jdbc:postgresql://127.0.0.1:5433/sluice?user=sluice&password=sluice}"
    REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6380}"
  else
    [ -n "$DB_URL" ] || DB_URL="$(pg_via_chroot)"
    [ -n "$REDIS_URL" ] || REDIS_URL="$(redis_local)"
  fi
fi
echo "export SLUICE_DB_URL='$DB_URL'"
echo "export SLUICE_REDIS_URL='$REDIS_URL'"
