#!/usr/bin/env bash
# Stops what scripts/services-up.sh started (and only that). The chroot stays cached.
set -uo pipefail
CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
RUN_DIR="$CACHE_DIR/run"
REDIS_PORT="${SLUICE_REDIS_PORT:-$(cat "$RUN_DIR/redis.port" 2>/dev/null || true)}"
if [ -f "$RUN_DIR/compose.mode" ]; then
  docker compose -f "$(dirname "$0")/../docker-compose.yml" stop postgres redis; rm -f "$RUN_DIR/compose.mode"
fi
if [ -f "$RUN_DIR/pg.mode" ]; then
  chroot "$ROOT" su postgres -s /bin/sh -c "/usr/lib/postgresql/17/bin/pg_ctl -D /var/lib/sluice-pg -m fast stop" >/dev/null 2>&1
  umount "$ROOT/dev/shm" 2>/dev/null; umount "$ROOT/proc" 2>/dev/null
  rm -f "$RUN_DIR/pg.mode" "$RUN_DIR/pg.port"
fi
if [ -f "$RUN_DIR/redis.mode" ]; then
  [ -z "$REDIS_PORT" ] || redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1
  rm -f "$RUN_DIR/redis.mode" "$RUN_DIR/redis.port"
fi
exit 0
