#!/usr/bin/env bash
# Runs every test against real services: PostgreSQL 17 + pgvector and Redis on loopback, given by
# scripts/services-up.sh (installed and started on first use, reused afterwards). Each run starts
# from a fresh database. Extra arguments go to Maven (e.g. -pl knowledge -am).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SLUICE_DB_URL:-}" ]; then export SLUICE_FRESH_DB="${SLUICE_FRESH_DB:-sluice_test}"; fi
eval "$(bash scripts/services-up.sh)"
echo "[test] database: ${SLUICE_DB_URL%%\?*}  redis: $SLUICE_REDIS_URL" >&2
exec ./mvnw -B -ntp verify "$@"
