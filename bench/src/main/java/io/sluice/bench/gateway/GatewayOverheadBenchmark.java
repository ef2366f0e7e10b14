package io.sluice.bench.gateway;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.GatewayProperties;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.permit.PermitProperties;
import io.sluice.governance.provider.OpenAiCompatibleClient;
import io.sluice.mock.MockProvider;
import io.sluice.mock.Scenario;

import org.HdrHistogram.Histogram;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * Gateway overhead: the same request to the in-process mock provider (0 ms latency) three ways,
 * interleaved round by round so machine load hits all alike:
 * <ol>
 * <li>direct — Spring AI {@link OpenAiChatModel#call} on the caller's thread (the baseline);</li>
 * <li>client — the gateway's provider client alone (the same ChatModel on the caller's thread under a deadline timer);</li>
 * <li>gateway — {@link LlmGateway#call} on the interactive lane: cluster permit (Redis), cool-down + token
 * reservation (Lua), retry-budget count, Sentinel entry, the call, settle, release, metrics.</li>
 * </ol>
 * Two more subjects give scale: one Redis round trip, and a cluster permit taken and given back alone.
 * Usage: {@code GatewayOverheadBenchmark [redisUrl] [rounds] [callsPerRound]}; redisUrl defaults to
 * {@code $SLUICE_REDIS_URL}. The gateway runs twice: with the default configuration (no token budget:
 * admission is the permit only) and with a token budget (1e9 tokens/min: the reservation script runs).
 */
public final class GatewayOverheadBenchmark {

    private static final int WARM_UP = 1_000;

    private GatewayOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String redisUrl = args.length > 0 ? args[0] : System.getenv("SLUICE_REDIS_URL");
        if (redisUrl == null || redisUrl.isBlank()) {
            throw new IllegalArgumentException("give a Redis URL as the first argument or set SLUICE_REDIS_URL");
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int perRound = args.length > 2 ? Integer.parseInt(args[2]) : 500;

        try (MockProvider mock = MockProvider.start(0)) {
            mock.scenario(Scenario.healthy().withCompletionTokens(16));
            RedissonClient redisson = redisson(redisUrl);
            String prefix = "bench:gw:" + UUID.randomUUID().toString().substring(0, 8) + ":";
            try (GatewayAssembly assembly = GatewayAssembly.assemble(properties(mock.baseUrl(), prefix, 0), permits(prefix),
                    redisson, new SimpleMeterRegistry(), OpenAiCompatibleClient.of(mock.baseUrl(), "bench"));
                    GatewayAssembly withTpm = GatewayAssembly.assemble(properties(mock.baseUrl(), prefix + "tpm:", 1_000_000_000L),
                        permits(prefix + "tpm:"), redisson, new SimpleMeterRegistry(), OpenAiCompatibleClient.of(mock.baseUrl(), "bench"));
                    OpenAiCompatibleClient client = OpenAiCompatibleClient.of(mock.baseUrl(), "bench")) {
                OpenAiChatModel direct = OpenAiChatModel.builder()
                    .options(OpenAiChatOptions.builder().baseUrl(mock.baseUrl()).apiKey("bench").model("gpt-bench")
                        .maxRetries(0).build())
                    .build();
                LlmGateway gateway = assembly.gateway();
                LlmRequest request = LlmRequest.of(Lane.INTERACTIVE, 16, LlmMessage.user("Where is my parcel? Order 4711."));
                Prompt prompt = new Prompt(List.of(new UserMessage("Where is my parcel? Order 4711.")),
                    OpenAiChatOptions.builder().model("gpt-bench").maxTokens(16).build());

                Map<String, Runnable> subjects = new LinkedHashMap<>();
                subjects.put("direct Spring AI call", () -> check(direct.call(prompt)));
                subjects.put("provider client (deadline timer)", () ->
                    client.call(new io.sluice.governance.provider.ProviderClient.Call("gpt-bench", request.messages(), 16, null), Duration.ofSeconds(5)));
                org.redisson.api.RBucket<String> probe = redisson.getBucket(prefix + "rtt-probe");
                subjects.put("one Redis round trip (GET, for scale)", probe::get);
                subjects.put("cluster permit acquire + release only", () ->
                    assembly.permits().tryAcquire("interactive", Duration.ofSeconds(1)).orElseThrow().close());
                subjects.put("governed gateway call", () -> check(gateway.call(request)));
                subjects.put("governed gateway call, TPM budget on", () -> check(withTpm.gateway().call(request)));

                for (int i = 0; i < WARM_UP; i++) {
                    subjects.values().forEach(Runnable::run);
                }
                Map<String, Histogram> histograms = new LinkedHashMap<>();
                subjects.keySet().forEach(name -> histograms.put(name, new Histogram(TimeUnit.SECONDS.toNanos(10), 3)));
                for (int round = 0; round < rounds; round++) {
                    for (Map.Entry<String, Runnable> subject : subjects.entrySet()) {
                        Histogram histogram = histograms.get(subject.getKey());
                        for (int i = 0; i < perRound; i++) {
                            long started = System.nanoTime();
                            subject.getValue().run();
                            histogram.recordValue(System.nanoTime() - started);
                        }
                    }
                }
                report(histograms, rounds * perRound, mock);
            } finally {
                redisson.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }

    private static void report(Map<String, Histogram> histograms, int calls, MockProvider mock) {
        System.out.printf("%d measured calls per subject (after %d warm-up), mock served %d%n", calls, WARM_UP,
            mock.counters().served());
        System.out.printf("%-45s %9s %9s %9s %9s %9s%n", "subject", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms");
        histograms.forEach((name, h) -> System.out.printf("%-45s %9.3f %9.3f %9.3f %9.3f %9.3f%n", name,
            ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(99)),
            ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue())));
        Histogram direct = histograms.get("direct Spring AI call");
        for (String name : List.of("governed gateway call", "governed gateway call, TPM budget on")) {
            Histogram gateway = histograms.get(name);
            System.out.printf("%s: overhead over direct p50 +%.3f ms, p99 +%.3f ms%n", name,
                ms(gateway.getValueAtPercentile(50) - direct.getValueAtPercentile(50)),
                ms(gateway.getValueAtPercentile(99) - direct.getValueAtPercentile(99)));
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static void check(ChatResponse response) {
        if (response.getResult() == null) {
            throw new IllegalStateException("the mock gave no answer");
        }
    }

    private static void check(LlmOutcome outcome) {
        if (!(outcome instanceof LlmOutcome.Answered)) {
            throw new IllegalStateException("the gateway did not answer: " + outcome);
        }
    }

    private static RedissonClient redisson(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url).setConnectTimeout(5_000).setTimeout(2_000);
        return Redisson.create(config);
    }

    private static GatewayProperties properties(String baseUrl, String prefix, long tpmLimit) {
        GatewayProperties.Sentinel sentinel = new GatewayProperties.Sentinel(64, 0, Duration.ofSeconds(5), 0.5, 0.5, 1000,
            Duration.ofSeconds(10), Duration.ofSeconds(30));
        Map<String, GatewayProperties.LaneConfig> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            lanes.put(lane.key(), new GatewayProperties.LaneConfig("primary", Duration.ofSeconds(6), 1, List.of(), Duration.ZERO,
                null, sentinel));
        }
        return new GatewayProperties(baseUrl, "bench", prefix,
            Map.of("primary", new GatewayProperties.Model("gpt-bench", null)), lanes,
            new GatewayProperties.Tpm(tpmLimit, Duration.ofMinutes(1)),
            new GatewayProperties.RetryBudget(0.1, 3, Duration.ofSeconds(10)), Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    private static PermitProperties permits(String prefix) {
        Map<String, PermitProperties.Lane> lanes = new LinkedHashMap<>();
        for (Lane lane : Lane.values()) {
            lanes.put(lane.key(), new PermitProperties.Lane(8, Duration.ofSeconds(1), Duration.ofSeconds(30)));
        }
        return new PermitProperties(prefix + "permits:", lanes);
    }

}
