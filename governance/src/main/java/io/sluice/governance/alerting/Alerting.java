package io.sluice.governance.alerting;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.periodic.PeriodicTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Evaluates the alert rules every interval and sends what changed to the sinks, off the evaluation
 * thread (a slow receiver delays notifications, never the next evaluation; a full delivery queue drops
 * the oldest). Meters: {@code sluice.alerts.firing{alert}} (0/1), {@code sluice.alerts.fired{alert}},
 * {@code sluice.alerts.deliveries{sink,outcome}}.
 */
public class Alerting implements SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Alerting.class);
    private static final int HISTORY = 100;

    private final AlertEvaluator evaluator;
    private final AlertSignals signals;
    private final List<AlertSink> sinks;
    private final Duration resendEvery;
    private final MeterRegistry meters;
    private final Clock clock;
    private final PeriodicTask ticker;
    private final ThreadPoolExecutor delivery;
    private final Deque<Alert> history = new ArrayDeque<>();
    private final Map<String, Instant> lastFailureLog = new ConcurrentHashMap<>();
    private Instant lastSend = Instant.EPOCH;

    public Alerting(List<AlertRule> rules, String instance, AlertSignals signals, List<AlertSink> sinks,
            Duration interval, Duration resendEvery, MeterRegistry meters, Clock clock) {
        this.evaluator = new AlertEvaluator(rules, instance);
        this.signals = signals;
        this.sinks = List.copyOf(sinks);
        this.resendEvery = resendEvery;
        this.meters = meters;
        this.clock = clock;
        this.ticker = new PeriodicTask("sluice-alerting", interval, this::tick);
        this.delivery = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(64), r -> {
            Thread t = new Thread(r, "sluice-alert-delivery");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardOldestPolicy());
        for (AlertRule rule : rules) {
            Gauge.builder("sluice.alerts.firing", evaluator, e -> e.firing().stream()
                    .anyMatch(a -> a.rule().name().equals(rule.name())) ? 1 : 0)
                .tag("alert", rule.name()).description("1 while the alert fires on this instance").register(meters);
            Counter.builder("sluice.alerts.fired").tag("alert", rule.name()).register(meters);
        }
    }

    /** One evaluation: fire, change and resolve alerts, send what changed (and re-send firing ones when due). */
    public void tick() {
        Instant now = clock.instant();
        List<Alert> changed = evaluator.evaluate(signals::read, now);
        for (Alert alert : changed) {
            remember(alert);
            if (alert.firing() && alert.startsAt().equals(now)) { // fired now, not a value change
                meters.counter("sluice.alerts.fired", "alert", alert.rule().name()).increment();
            }
            if (alert.firing()) {
                log.warn("alert {} firing ({}): {} = {}", alert.rule().name(), alert.rule().severity(),
                    alert.rule().signal(), alert.value());
            } else {
                log.info("alert {} resolved", alert.rule().name());
            }
        }
        if (!changed.isEmpty()) {
            send(changed, false, now);
        } else if (!Duration.between(lastSend, now).minus(resendEvery).isNegative()) {
            List<Alert> firing = evaluator.firing();
            if (!firing.isEmpty()) {
                send(firing, true, now);
            }
        }
    }

    /** The alerts firing now on this instance. */
    public List<Alert> firing() {
        return evaluator.firing();
    }

    /** The latest notifications (fired, changed, resolved), newest first. */
    public synchronized List<Alert> recent() {
        return List.copyOf(history);
    }

    public List<AlertRule> rules() {
        return evaluator.rules();
    }

    private synchronized void remember(Alert alert) {
        history.addFirst(alert);
        while (history.size() > HISTORY) {
            history.removeLast();
        }
    }

    private void send(List<Alert> alerts, boolean resend, Instant now) {
        lastSend = now;
        for (AlertSink sink : sinks) {
            delivery.execute(() -> {
                try {
                    sink.deliver(alerts, resend);
                    meters.counter("sluice.alerts.deliveries", "sink", sink.name(), "outcome", "ok").increment();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    meters.counter("sluice.alerts.deliveries", "sink", sink.name(), "outcome", "failed").increment();
                    Instant last = lastFailureLog.get(sink.name());
                    if (last == null || Duration.between(last, clock.instant()).toMinutes() >= 1) {
                        lastFailureLog.put(sink.name(), clock.instant());
                        log.warn("alert delivery to {} failed: {} (logged at most once a minute)", sink.name(),
                            e.getMessage());
                    }
                }
            });
        }
    }

    @Override
    public void start() {
        ticker.start();
    }

    @Override
    public void stop() {
        ticker.stop();
    }

    @Override
    public boolean isRunning() {
        return ticker.isRunning();
    }

    @Override
    public void close() {
        ticker.close();
        delivery.shutdownNow();
    }
}
