package io.sluice.mock;

import java.util.concurrent.CountDownLatch;

/**
 * Runs the mock provider as a process: {@code java -cp ... io.sluice.mock.MockProviderMain [port] [seed]}.
 * Drive it with {@code PUT /_mock/scenario} and read {@code GET /_mock/counters}.
 */
public final class MockProviderMain {

    private MockProviderMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8089;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        MockProvider provider = MockProvider.start(port);
        provider.scenario(Scenario.healthy().withSeed(seed));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            provider.close();
            stopped.countDown();
        }));
        System.out.println("mock provider at " + provider.baseUrl() + " (control: /_mock/scenario, /_mock/counters, /_mock/reset)");
        stopped.await();
    }
}
