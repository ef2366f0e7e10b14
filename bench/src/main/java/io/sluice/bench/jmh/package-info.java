/**
 * JMH microbenchmarks of the hot paths: priority admission, the Redis token-bucket and
 * token-reservation scripts, the semantic cache lookup, the intent rules and the intent JSON parser.
 * {@link io.sluice.bench.jmh.JmhBenchmarks} runs them and writes {@code bench/target/jmh/results.json}
 * and {@code docs/benchmarks-jmh.md}; {@code scripts/jmh.sh [quick|full] [regex]} builds and runs it.
 * Never part of the test suite. The Redis benchmarks need {@code SLUICE_REDIS_URL}.
 */
package io.sluice.bench.jmh;
