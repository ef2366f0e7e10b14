package io.sluice.bench.jmh;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.sluice.governance.intent.IntentParser;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * {@link IntentParser#parse} over a table of answers as models write them (the same kinds as
 * IntentParserTest): clean JSON, fenced, prose around it, confidence as a string, and the rejected
 * kinds. Setup checks each input still parses (or is rejected) as its name says.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class IntentParserBenchmark {

    private static final Set<String> WHITELIST = Set.of("refund", "shipping", "complaint", "payment", "account",
        "order_problem", "returns", "general");

    /** Input, and the problem it must be rejected with (null = it must parse). */
    private record Case(String text, IntentParser.Problem problem) {
    }

    private static final Map<String, Case> CASES = Map.of(
        "plain", new Case("{\"intent\":\"refund\",\"confidence\":0.9}", null),
        "fenced", new Case("```json\n{\"intent\": \"shipping\", \"confidence\": 0.75}\n```", null),
        "prose", new Case("Sure! Here is the intent: {\"intent\":\"complaint\",\"confidence\":0.6} Hope it helps.", null),
        "string_confidence", new Case("{\"intent\":\" Refund \",\"confidence\":\"0.8\"}", null),
        "truncated", new Case("```json\n{\"intent\":\"refund\",\"confid", IntentParser.Problem.TRUNCATED),
        "malformed", new Case("{intent: refund, confidence: high}", IntentParser.Problem.MALFORMED),
        "unknown_intent", new Case("{\"intent\":\"weather\",\"confidence\":0.9}", IntentParser.Problem.UNKNOWN_INTENT));

    @Param({"plain", "fenced", "prose", "string_confidence", "truncated", "malformed", "unknown_intent"})
    String kind;

    private String text;

    @Setup(Level.Trial)
    public void setUp() {
        Case c = CASES.get(kind);
        IntentParser.Result result = IntentParser.parse(c.text(), WHITELIST);
        boolean asNamed = c.problem() == null ? result instanceof IntentParser.Result.Parsed
            : result instanceof IntentParser.Result.Rejected rejected && rejected.problem() == c.problem();
        if (!asNamed) {
            throw new IllegalStateException(kind + ": expected " + (c.problem() == null ? "a parse" : c.problem())
                + ", got " + result);
        }
        text = c.text();
    }

    @Benchmark
    public IntentParser.Result parse() {
        return IntentParser.parse(text, WHITELIST);
    }
}
