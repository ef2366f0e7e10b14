#!/usr/bin/env bash
# JMH microbenchmarks of the hot paths (bench/src/main/java/io/sluice/bench/jmh): builds the bench
# module, runs io.sluice.bench.jmh.JmhBenchmarks, writes bench/target/jmh/results.json and
# docs/benchmarks-jmh.md (log: bench/target/jmh/run.log). Not part of the test suite.
#   scripts/jmh.sh [quick|full] [include-regex]
#   quick (default): 1 fork, warm-up 2 × 1 s, measurement 3 × 1 s (a few minutes for all)
#   full:            2 forks, warm-up 3 × 2 s, measurement 5 × 2 s
# With an include regex (e.g. 'Intent') only those run, into bench/target/jmh/partial.json and
# partial.md (the full run's results and docs/ stay as they are). The Redis benchmarks need SLUICE_REDIS_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
sluice_use_java
mode=${1:-quick}
include=${2:-}
: "${SLUICE_REDIS_URL:?set SLUICE_REDIS_URL (e.g. redis://127.0.0.1:6379): the token-bucket and cache benchmarks use real Redis}"
mkdir -p bench/target/jmh
# package, not compile: the semantics module tests against the knowledge test jar, which only package builds
./mvnw -B -ntp -q -pl bench -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/jmh/classpath.txt
json=bench/target/jmh/results.json
report=docs/benchmarks-jmh.md
if [ -n "$include" ]; then
  json=bench/target/jmh/partial.json
  report=bench/target/jmh/partial.md
fi
# the full JMH log (iterations, errors) is kept next to the results
java -Dsluice.jmh.commit="$(git rev-parse --short HEAD 2>/dev/null || true)" \
  -cp "bench/target/classes:$(cat bench/target/jmh/classpath.txt)" \
  io.sluice.bench.jmh.JmhBenchmarks "$mode" "$json" "$report" "$include" 2>&1 \
  | tee bench/target/jmh/run.log
