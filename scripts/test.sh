#!/usr/bin/env bash
# Runs every test against real services: PostgreSQL 17 + pgvector and Redis on loopback, given by
# scripts/services-up.sh (installed and started on first use, reused afterwards). Each run starts
# from a fresh database. Extra arguments go to Maven (e.g. -pl knowledge -am). A full run (no
# arguments) ends with the load harness's smoke test (scripts/bench.sh --short --smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
sluice_use_java
if [ -z "${SLUICE_DB_URL:-}" ]; then export SLUICE_FRESH_DB="${SLUICE_FRESH_DB:-sluice_test}"; fi
eval "$(bash scripts/services-up.sh)"
# a real streaming read replica of the chroot PostgreSQL (ReadReplicaTest), stopped at the end
if [ -z "${SLUICE_DB_READ_URL:-}" ] && [ "$(cat "${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}/run/pg.mode" 2>/dev/null)" = chroot ] \
   && [ "${SLUICE_DB_REPLICA:-1}" != 0 ]; then
  eval "$(bash scripts/pg-replica.sh up "$SLUICE_DB_URL")"
  trap 'bash scripts/pg-replica.sh down' EXIT
fi
# the console's browser tests drive Debian's Chromium
if ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && fc-list 2>/dev/null | grep -qi "wenquanyi\\|noto sans cjk"; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[test] installing chromium, chromium-driver and a CJK font for screenshots" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-wqy-zenhei >&2
  else
    echo "[test] console browser tests need chromium and chromium-driver (apt-get install chromium chromium-driver)" >&2
  fi
fi
echo "[test] database: ${SLUICE_DB_URL%%\?*}  redis: $SLUICE_REDIS_URL" >&2
./mvnw -B -ntp verify "$@"
# then the load/chaos harness in short mode, a smoke test of its invariants (not of speed); a full
# test run only (no extra Maven arguments); SLUICE_BENCH_SMOKE=0 skips it
# the Redis-facing tests again on a real Redis Cluster and Sentinel set-up (started and stopped there);
# full runs only, SLUICE_REDIS_TOPOLOGIES=0 skips it
if [ $# -eq 0 ] && [ "${SLUICE_REDIS_TOPOLOGIES:-1}" != 0 ]; then
  bash scripts/test-redis-topologies.sh
fi
if [ $# -eq 0 ] && [ "${SLUICE_BENCH_SMOKE:-1}" != 0 ]; then
  bash scripts/bench.sh --short --smoke
fi
