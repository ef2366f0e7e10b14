#!/usr/bin/env bash
# Runs Sluice on its embedded default: embedded PostgreSQL and Redis from Maven artifacts, Lucene
# on local disk, data under ./data (kept between runs). Builds first when the jar is missing or a
# source changed since the last build. Set SLUICE_DB_URL / SLUICE_REDIS_URL for external mode (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
sluice_use_java
jar=app/target/sluice.jar
# The jar's own timestamp is fixed for reproducible builds (project.build.outputTimestamp), so a
# stamp written after each build tells whether a source is newer than the last build.
stamp=app/target/.sluice-built
if [ ! -f "$jar" ] || [ ! -f "$stamp" ] || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o -path ./.git -prune -o -path '*/node_modules' -prune -o \
     \( -name '*.java' -o -name '*.yml' -o -name '*.sql' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -type f -newer "$stamp" -print -quit)" ]; then
  echo "[run] building (./mvnw -DskipTests package)" >&2
  touch "$stamp.next"
  ./mvnw -B -q -ntp -DskipTests package
  mv "$stamp.next" "$stamp"
fi
# Footprint defaults (docs/capacity.md): a heap bounded at 1 GB that starts small and gives idle memory
# back, compact object headers, a smaller code cache. JAVA_OPTS comes after them, so it overrides any.
SLUICE_JAVA_DEFAULTS="-Xms64m -Xmx1g -XX:+UseCompactObjectHeaders -XX:G1PeriodicGCInterval=30000 -XX:MaxHeapFreeRatio=30 -XX:MinHeapFreeRatio=10 -XX:ReservedCodeCacheSize=128m"
# glibc gives each thread that mallocs an arena of its own (up to 8 per core): two are enough for the ONNX
# runtime and the JVM's native allocations, and save tens of MB of resident memory
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec java $SLUICE_JAVA_DEFAULTS ${JAVA_OPTS:-} -jar "$jar" "$@"
