#!/usr/bin/env bash
# The load, chaos and benchmark harness (docs/benchmarks.md): starts the mock provider and two
# Sluice instances in external mode (PostgreSQL 17 + pgvector and Redis from scripts/services-up.sh),
# runs the scenarios, checks the invariants and writes the report with charts. Exit 1 if an
# invariant broke.
#
#   scripts/bench.sh                       # full mode: every scenario 2 min; writes docs/benchmarks.md + docs/bench/*.png
#   scripts/bench.sh --short               # every scenario ≤ 20 s (same report, marked short)
#   scripts/bench.sh --short --smoke       # CI smoke of the invariants: report to bench/target/bench-report/ only
#   scripts/bench.sh --scenarios surge,provider-hang
#
# Scenarios: steady surge provider-slow provider-hang 429-storm 5xx-burst redis-restart
# postgres-restart batch-online instance-kill frontdoor. The run uses a fresh database `sluice_bench`
# (SLUICE_BENCH_DB_URL / SLUICE_BENCH_REDIS_URL point it elsewhere). The redis-restart and
# postgres-restart scenarios restart those servers (scripts/bench-chaos.sh): don't share them with
# anything you mind restarting. Ports: 18480-18482 (mock, instance a, b), +10 for the front door.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${SLUICE_BENCH_DB_URL:-}" ]; then
  export SLUICE_DB_URL="$SLUICE_BENCH_DB_URL"
  [ -n "${SLUICE_REDIS_URL:-}${SLUICE_BENCH_REDIS_URL:-}" ] || eval "$(bash scripts/services-up.sh | grep SLUICE_REDIS_URL)"
else
  eval "$(env -u SLUICE_DB_URL SLUICE_FRESH_DB=sluice_bench bash scripts/services-up.sh)"
fi
if [ -n "${SLUICE_BENCH_REDIS_URL:-}" ]; then export SLUICE_REDIS_URL="$SLUICE_BENCH_REDIS_URL"; fi

# build the app jar and the harness when missing or older than the sources (classpath.txt is written by each package)
cp_file=bench/target/classpath.txt
if [ ! -f app/target/sluice.jar ] || [ ! -f "$cp_file" ] || [ ! -f bench/target/classes/io/sluice/bench/load/LoadHarness.class ] \
   || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o \( -name '*.java' -o -name '*.yml' -o -name '*.sql' -o -name 'pom.xml' \) -newer "$cp_file" -print -quit)" ]; then
  echo "[bench] building (./mvnw -DskipTests package)" >&2
  ./mvnw -B -q -ntp -DskipTests package
fi
echo "[bench] database: ${SLUICE_DB_URL%%\?*}  redis: $SLUICE_REDIS_URL" >&2
exec java -Xmx512m -cp "bench/target/classes:$(cat "$cp_file")" io.sluice.bench.load.LoadHarness "$@"
