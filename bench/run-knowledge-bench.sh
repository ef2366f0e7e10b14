#!/usr/bin/env bash
# Knowledge retrieval benchmark in one command (docs/benchmarks-knowledge.md).
#   bench/run-knowledge-bench.sh [chunks=10000] [queries=500]
# Optional: SLUICE_DB_URL='jdbc:postgresql://127.0.0.1:55432/<db>?user=postgres' (PostgreSQL + pgvector) adds the
# pgvector tier; the schema is migrated if needed and the bench rows are removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -ntp -q -pl bench -am compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
exec java -Xmx2g -cp "bench/target/classes:$(cat bench/target/bench-classpath.txt)" \
  io.sluice.bench.knowledge.KnowledgeRetrievalBench "$@"
