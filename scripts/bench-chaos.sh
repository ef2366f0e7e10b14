#!/usr/bin/env bash
# Chaos hook of the load harness (scripts/bench.sh): stops Redis or PostgreSQL for a few seconds and
# starts it again, the way scripts/services-up.sh runs them.
#
#   scripts/bench-chaos.sh redis-restart    [down-seconds]   # Redis comes back EMPTY (no persistence)
#   scripts/bench-chaos.sh postgres-restart [down-seconds]
#
# Reads SLUICE_REDIS_URL / SLUICE_DB_URL for the ports. Docker Compose mode (services-up.sh started
# compose) stops and starts the compose service; otherwise redis-server on its port and PostgreSQL in
# the debootstrap chroot (data directory SLUICE_BENCH_PG_DATA, default /var/lib/sluice-pg).
set -euo pipefail
cmd="${1:?usage: bench-chaos.sh redis-restart|postgres-restart [down-seconds]}"
down="${2:-3}"
CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
RUN_DIR="$CACHE_DIR/run"
PG_DATA="${SLUICE_BENCH_PG_DATA:-/var/lib/sluice-pg}"
PG_BIN=/usr/lib/postgresql/17/bin
COMPOSE="$(dirname "$0")/../docker-compose.yml"
log() { echo "[bench-chaos] $*" >&2; }

hostport() { # redis://host:port/db or jdbc:postgresql://host:port/db?… -> port
  local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"; echo "${rest##*:}"
}

compose_mode() { [ -f "$RUN_DIR/compose.mode" ] && [ -z "${SLUICE_BENCH_PG_DATA:-}" ]; }

case "$cmd" in
  redis-restart)
    port="$(hostport "${SLUICE_REDIS_URL:?SLUICE_REDIS_URL is not set}")"
    if compose_mode; then
      docker compose -f "$COMPOSE" stop redis >&2; sleep "$down"; docker compose -f "$COMPOSE" start redis >&2
    else
      log "redis on 127.0.0.1:$port: shutdown, down ${down}s, start (empty)"
      redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true
      sleep "$down" # the outage itself
      mkdir -p "$RUN_DIR"
      redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
        --dir "$RUN_DIR" --pidfile "$RUN_DIR/redis-$port.pid" --logfile "$RUN_DIR/redis-$port.log" >&2
    fi
    for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && exit 0; sleep 0.1; done
    log "redis did not come back"; exit 1
    ;;
  postgres-restart)
    port="$(hostport "${SLUICE_DB_URL:?SLUICE_DB_URL is not set}")"; port="${port%%\?*}"
    if compose_mode; then
      docker compose -f "$COMPOSE" stop postgres >&2; sleep "$down"; docker compose -f "$COMPOSE" start postgres >&2
      exit 0
    fi
    log "postgresql ($PG_DATA, port $port): stop, down ${down}s, start"
    chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $PG_DATA -m fast -w -t 30 stop" >&2
    sleep "$down" # the outage itself
    chroot "$ROOT" su postgres -s /bin/sh -c \
      "$PG_BIN/pg_ctl -D $PG_DATA -l $PG_DATA/server.log -w -t 60 -o '-c listen_addresses=127.0.0.1 -p $port -c max_connections=300 -c fsync=off -c synchronous_commit=off' start" >&2
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
