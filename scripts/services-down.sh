#!/usr/bin/env bash
# Stops what scripts/services-up.sh started (and only that). The chroot stays cached.
set -uo pipefail
CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
PG_PORT="${SLUICE_PG_PORT:-55432}"
REDIS_PORT="${SLUICE_REDIS_PORT:-56379}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
RUN_DIR="$CACHE_DIR/run"
if [ -f "$RUN_DIR/compose.mode" ]; then
  docker compose -f "$(dirname "$0")/../docker-compose.yml" stop postgres redis; rm -f "$RUN_DIR/compose.mode"
fi
if [ -f "$RUN_DIR/pg.mode" ]; then
  chroot "$ROOT" su postgres -s /bin/sh -c "/usr/lib/postgresql/17/bin/pg_ctl -D /var/lib/sluice-pg -m fast stop" >/dev/null 2>&1
  umount "$ROOT/dev/shm" 2>/dev/null; umount "$ROOT/proc" 2>/dev/null
  rm -f "$RUN_DIR/pg.mode"
fi
if [ -f "$RUN_DIR/redis.mode" ]; then
  redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1; rm -f "$RUN_DIR/redis.mode"
fi
exit 0
