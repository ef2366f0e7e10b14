/**
 * Benchmark harness. Each area keeps its harness in its own subpackage
 * ({@code io.sluice.bench.gateway}, {@code .knowledge}, {@code .batch}, {@code .chat}) with a {@code main}
 * that prints machine, settings, method and results; docs/benchmarks.md collects the reports.
 * Load loops are bounded in count and time, loopback only.
 */
package io.sluice.bench;
