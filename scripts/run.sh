#!/usr/bin/env bash
# Runs Sluice on its embedded default: embedded PostgreSQL and Redis from Maven artifacts, Lucene
# on local disk, data under ./data (kept between runs). Builds first when the jar is missing or
# older than the sources. Set SLUICE_DB_URL / SLUICE_REDIS_URL for external mode (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=app/target/sluice.jar
if [ ! -f "$jar" ] || [ -n "$(find . -path ./data -prune -o \( -name '*.java' -o -name '*.yml' -o -name '*.sql' -o -name 'pom.xml' -o -path '*/resources/*' \) -newer "$jar" -print -quit)" ]; then
  ./mvnw -B -q -ntp -DskipTests package
fi
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
