package io.sluice.bench.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.sluice.api.intent.Intent;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.RuleIntentClassifier;

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
 * {@link RuleIntentClassifier#classify}: every rule's pattern against one message, per message kind
 * (Chinese and English, a match, several, none, a long message). Setup checks each message still
 * gets the intent it is meant to, so a rule change cannot quietly turn a case into another.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class IntentRulesBenchmark {

    private record Case(String message, Intent intent) {
    }

    private static final Map<String, Case> CASES = Map.of(
        "zh_refund", new Case("我的退款什么时候能到账？", Intent.REFUND),
        "zh_complaint", new Case("你们客服态度太差了，我要投诉，再不处理我就打12315", Intent.COMPLAINT),
        "zh_general", new Case("你好，请问你们周末上班吗", Intent.GENERAL),
        "en_payment", new Case("I was charged twice for the same order, please fix it", Intent.PAYMENT),
        "en_logistics", new Case("Where is my parcel? The tracking page has not changed for days.", Intent.LOGISTICS),
        "long_mixed", new Case("您好，我上周买的咖啡机收到的时候外包装破损，机器也坏了，想申请退货退款，"
            + "但是页面一直提示登录失败，快递员说要先联系客服。Could you please help me with the return and refund "
            + "as soon as possible? 订单号 20261130-4711，谢谢！", Intent.REFUND));

    @Param({"zh_refund", "zh_complaint", "zh_general", "en_payment", "en_logistics", "long_mixed"})
    String kind;

    private final RuleIntentClassifier rules = new RuleIntentClassifier();
    private String message;

    @Setup(Level.Trial)
    public void setUp() {
        Case c = CASES.get(kind);
        Intent got = rules.classify(c.message()).intent();
        if (got != c.intent()) {
            throw new IllegalStateException(kind + ": expected " + c.intent() + ", the rules say " + got);
        }
        message = c.message();
    }

    @Benchmark
    public IntentResult classify() {
        return rules.classify(message);
    }
}
