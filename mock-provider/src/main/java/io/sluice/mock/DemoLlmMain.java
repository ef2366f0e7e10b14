package io.sluice.mock;

import java.util.concurrent.CountDownLatch;

/**
 * The simulated model behind {@code scripts/run.sh --demo-llm}: the mock provider with a human-looking
 * latency and an answer that says plainly it is simulated, so a newcomer without an LLM account sees
 * tiers F4–F2 and, by changing the scenario over HTTP, degradation. Never a real model.
 * {@code java -cp ... io.sluice.mock.DemoLlmMain PORT}; prints one line "demo-llm ready at URL" when it answers.
 */
public final class DemoLlmMain {

    /** Every answer of the simulated model; it names itself so no one mistakes it for a real one. */
    static final String ANSWER = "【模拟模型 simulated model】这是演示用的模拟回答，没有调用真实的大模型。"
        + "Sluice 已按当前档位检索知识库并组装了提示词；接入真实模型（SLUICE_LLM_BASE_URL）后，这里会是根据来源写出的回答。";

    private DemoLlmMain() {
    }

    /** The demo's scenario: healthy, about half a second per answer, the labelled answer text. */
    static Scenario demoScenario() {
        return Scenario.healthy().withNormalLatency(500, 150).withResponseText(ANSWER);
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1 || !args[0].matches("\\d{1,5}")) {
            System.err.println("usage: DemoLlmMain PORT");
            System.exit(2);
        }
        MockProvider provider = MockProvider.start(Integer.parseInt(args[0]));
        provider.scenario(demoScenario());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            provider.close();
            stopped.countDown();
        }));
        System.out.println("demo-llm ready at " + provider.baseUrl() + " (SIMULATED model; scenario: PUT /_mock/scenario)");
        stopped.await();
    }
}
