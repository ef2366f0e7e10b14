package io.sluice.api.openai.keys;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the /v1 request log and spend queued by {@link RequestLog} and {@link KeyBudgets} every
 * {@code sluice.gateway.keys.write-behind.flush-every} on one thread of its own, and what is left when
 * the application stops: it is closed after the web server's graceful shutdown has let the calls in
 * flight end, and before the database pool closes.
 */
public final class GatewayWriteBehind implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GatewayWriteBehind.class);

    private final RequestLog requestLog;
    private final KeyBudgets budgets;
    private final ScheduledExecutorService flusher;

    public GatewayWriteBehind(RequestLog requestLog, KeyBudgets budgets, KeyBudgetProperties properties) {
        this.requestLog = requestLog;
        this.budgets = budgets;
        this.flusher = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("sluice-gateway-write-behind")
            .daemon(true).factory());
        if (properties.writeBehind().enabled()) {
            long every = properties.writeBehind().flushEvery().toNanos();
            flusher.scheduleWithFixedDelay(this::flushQuietly, every, every, TimeUnit.NANOSECONDS);
        }
    }

    /** Writes everything queued now. */
    public void flush() {
        requestLog.flush();
        budgets.flush();
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            log.warn("gateway write-behind: flush failed, retried at the next one: {}", e.toString()); // never kill the schedule
        }
    }

    @Override
    public void close() {
        flusher.shutdown();
        try {
            flusher.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
        if (requestLog.pending() > 0 || budgets.pending() > 0) {
            log.warn("gateway write-behind: {} request-log rows and {} spend rows could not be written at shutdown",
                requestLog.pending(), budgets.pending());
        }
    }

    /** Hands what {@code next} yields (null = nothing more) to {@code write} in lists of at most {@code size}. */
    static <T> void inBatches(Supplier<T> next, int size, Consumer<List<T>> write) {
        List<T> batch = new ArrayList<>();
        for (T item = next.get(); item != null; item = next.get()) {
            batch.add(item);
            if (batch.size() == size) {
                write.accept(batch);
                batch = new ArrayList<>();
            }
        }
        if (!batch.isEmpty()) {
            write.accept(batch);
        }
    }
}
