package io.sluice.api.chat;

import java.sql.Connection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the database can be reached, probed off the request path (a request never waits for a
 * connection to find out). While it is down the knowledge the chat answers from is the local copy —
 * the FAQ snapshot on disk and the local index — which nothing can update, so answers say how old it is
 * ({@link FreshnessStep}). Gauge {@code sluice.chat.database.up} (1 up, 0 down).
 */
public class DatabaseStatus implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DatabaseStatus.class);

    /** Never probes: always reachable (no database here, or probing switched off). */
    public static final DatabaseStatus UP = new DatabaseStatus(null);

    private final DataSource dataSource;
    private volatile boolean up = true;
    private ScheduledExecutorService probe;

    public DatabaseStatus(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Probes every {@code intervalMs} on a daemon thread of its own. */
    public DatabaseStatus start(long intervalMs, MeterRegistry meters) {
        Gauge.builder("sluice.chat.database.up", this, s -> s.up ? 1 : 0)
            .description("whether the chat's last database probe reached the database").register(meters);
        probe = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-database-probe");
            t.setDaemon(true);
            return t;
        });
        probe.scheduleWithFixedDelay(this::check, 0, intervalMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /** One probe now; returns whether the database answered. */
    public boolean check() {
        if (dataSource == null) {
            return true;
        }
        boolean reached;
        try (Connection c = dataSource.getConnection()) {
            reached = c.isValid(2);
        } catch (Exception | LinkageError e) {
            reached = false;
        }
        if (reached != up) {
            log.warn("database {}", reached ? "reachable again" : "unreachable: answers say they rest on the local FAQ snapshot");
        }
        up = reached;
        return reached;
    }

    public boolean down() {
        return !up;
    }

    @Override
    public void close() {
        if (probe != null) {
            probe.shutdownNow();
        }
    }
}
