package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

/** Streams run on virtual threads, bounded by the stream cap alone, and give their slot back when they end. */
class ChatStreamWorkersTest {

    @Test
    void holdsManyMoreWaitingStreamsThanCarrierThreadsAndFreesEverySlot() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        int streams = 2_000; // far more than any platform pool of this machine would hold
        try (ChatStreamWorkers workers = new ChatStreamWorkers(streams, meters)) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger virtual = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                running.add(workers.submit(() -> {
                    if (Thread.currentThread().isVirtual()) {
                        virtual.incrementAndGet();
                    }
                    try {
                        release.await(); // a stream waiting for its provider
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            assertThat(workers.active()).isEqualTo(streams);
            assertThat(meters.get("sluice.chat.streams.active").gauge().value()).isEqualTo(streams);
            assertThatThrownBy(() -> workers.submit(() -> { }))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("open chat streams");

            release.countDown();
            for (Future<?> f : running) {
                f.get();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> workers.active() == 0);
            assertThat(virtual.get()).isEqualTo(streams);
            assertThat(workers.submit(() -> { })).isNotNull(); // a slot is free again
        }
    }

    @Test
    void aCancelledStreamGivesItsSlotBack() {
        try (ChatStreamWorkers workers = new ChatStreamWorkers(1, new SimpleMeterRegistry())) {
            CountDownLatch never = new CountDownLatch(1);
            Future<?> waiting = workers.submit(() -> {
                try {
                    never.await(); // a stream waiting for its provider; only the cancel below ends it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThatThrownBy(() -> workers.submit(() -> { })).isInstanceOf(RejectedExecutionException.class);
            waiting.cancel(true); // the client went away
            await().atMost(Duration.ofSeconds(10)).until(() -> workers.active() == 0);
        }
    }
}
