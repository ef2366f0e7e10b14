package io.sluice.semantics.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.semantics.model.Activation.Action;

import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The one place learned models are versioned and put in service, cluster-wide, the way FAQ snapshots
 * are: a version is stored with its evaluation, activated (the version goes to PostgreSQL as the
 * kind's current one and is announced on a Redis topic; every instance loads it from the database and
 * swaps it in), and can be rolled back to the version active before. An instance that missed an
 * announcement (down, Redis unreachable) catches up at start and on a periodic check. A payload that
 * does not decode is never activated and never replaces the model answering.
 *
 * <p>Callers register each kind once with its codec and built-in default, and read the
 * {@link ActiveModel} on every decision.
 */
public class SemanticModels implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SemanticModels.class);

    private final SemanticModelStore store;
    private final RTopic topic;
    private final Duration catchUpInterval;
    private final MeterRegistry meters;
    private final Map<String, ActiveModel<?>> models = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService catchUp;
    private volatile int listenerId = -1;
    private volatile boolean running;

    /** @param redisson null = single instance (no announcement; the periodic check still runs) */
    public SemanticModels(SemanticModelStore store, RedissonClient redisson, String channel, Duration catchUpInterval,
            MeterRegistry meters) {
        this.store = store;
        this.topic = redisson == null ? null : redisson.getTopic(channel, StringCodec.INSTANCE);
        this.catchUpInterval = catchUpInterval;
        this.meters = meters;
    }

    /** Registers a kind; the returned holder answers with {@code fallback} until a version is loaded. */
    public <T> ActiveModel<T> register(String kind, ModelCodec<T> codec, T fallback) {
        requireKind(kind);
        ActiveModel<T> model = new ActiveModel<>(kind, codec, fallback);
        if (models.putIfAbsent(kind, model) != null) {
            throw new IllegalStateException("semantic model kind '" + kind + "' is registered twice");
        }
        Gauge.builder("sluice.semantics.model.version", model, ActiveModel::version)
            .description("stored version of the learned model answering (0 = built-in default)")
            .tag("kind", kind).register(meters);
        if (running) {
            catchUp(kind);
        }
        return model;
    }

    /** Stores a new version of a kind; it does not answer until {@link #activate activated}. */
    public StoredModel save(String kind, byte[] payload, String evaluationJson, String note, String actor) {
        ActiveModel<?> model = registered(kind);
        model.decode(payload); // refuse what could never be activated
        long version = store.save(kind, payload, evaluationJson, note, actor);
        return store.find(kind, version).orElseThrow();
    }

    /**
     * Puts a stored version in service on every instance. Whether it may be activated (not worse than
     * the active one on the same split, or forced) is the caller's decision, recorded as {@code action}.
     */
    public void activate(String kind, long version, Action action, String actor, String reason) {
        ActiveModel<?> model = registered(kind);
        byte[] payload = store.payload(kind, version).orElseThrow(() ->
            new IllegalArgumentException("no stored " + kind + " model v" + version));
        install(model, payload, version); // decodes here first: a bad version is not announced
        store.setCurrent(kind, version, action, actor, reason);
        log.info("semantic model {} v{} activated ({}) by {}; announcing", kind, version, action, actor);
        announce(kind);
    }

    /**
     * Undoes the latest activation: the version active before it answers again on every instance, or
     * the built-in default when there was none (then the result is empty).
     */
    public Optional<StoredModel> rollback(String kind, String actor, String reason) {
        ActiveModel<?> model = registered(kind);
        if (store.current(kind).isEmpty()) {
            return Optional.empty();
        }
        List<Long> stack = store.activationStack(kind);
        if (stack.size() < 2) {
            store.clearCurrent(kind, actor, reason);
            model.reset();
            log.info("semantic model {} rolled back to the built-in default by {}; announcing", kind, actor);
            announce(kind);
            return Optional.empty();
        }
        long previous = stack.get(stack.size() - 2);
        byte[] payload = store.payload(kind, previous).orElseThrow(() ->
            new IllegalStateException("the previous " + kind + " model v" + previous + " is no longer stored"));
        install(model, payload, previous);
        store.setCurrent(kind, previous, Action.ROLLBACK, actor, reason);
        log.info("semantic model {} rolled back to v{} by {}; announcing", kind, previous, actor);
        announce(kind);
        return store.find(kind, previous);
    }

    public List<StoredModel> versions(String kind, int limit) {
        return store.versions(kind, limit);
    }

    public List<Activation> history(String kind, int limit) {
        return store.history(kind, limit);
    }

    public Optional<StoredModel> find(String kind, long version) {
        return store.find(kind, version);
    }

    /** The payload of a stored version (for export or comparison). */
    public Optional<byte[]> payload(String kind, long version) {
        return store.payload(kind, version);
    }

    /** Loads the cluster's current version of a kind here, when it differs from the one answering. */
    public void catchUp(String kind) {
        ActiveModel<?> model = models.get(kind);
        if (model == null) {
            return;
        }
        try {
            Optional<Long> current = store.current(kind);
            if (current.isEmpty()) {
                if (model.version() != 0) {
                    model.reset();
                    log.info("semantic model {}: no current version in the cluster, the built-in default answers", kind);
                }
                return;
            }
            if (current.get() == model.version()) {
                return;
            }
            Optional<byte[]> payload = store.payload(kind, current.get());
            if (payload.isEmpty()) {
                log.warn("semantic model {} v{} is current but not stored", kind, current.get());
                return;
            }
            install(model, payload.get(), current.get());
            log.info("semantic model {} v{} installed", kind, current.get());
        } catch (RuntimeException e) {
            // the model answering keeps answering
            log.warn("semantic model {}: cannot load the cluster's current version: {}", kind, e.toString());
        }
    }

    private static <T> void install(ActiveModel<T> model, byte[] payload, long version) {
        model.install(model.decode(payload), version);
    }

    private ActiveModel<?> registered(String kind) {
        ActiveModel<?> model = models.get(kind);
        if (model == null) {
            throw new IllegalArgumentException("unknown semantic model kind '" + kind + "'");
        }
        return model;
    }

    private static void requireKind(String kind) {
        if (kind == null || !kind.matches("[a-z][a-z0-9-]{0,39}")) {
            throw new IllegalArgumentException("a model kind is 1-40 lower-case letters, digits or '-'");
        }
    }

    private void announce(String kind) {
        if (topic == null) {
            return;
        }
        try {
            topic.publish(kind);
        } catch (RuntimeException e) {
            log.warn("could not announce semantic model {} (instances catch up within {}): {}", kind,
                catchUpInterval, e.toString());
        }
    }

    @Override
    public void start() {
        running = true;
        if (topic != null) {
            try {
                listenerId = topic.addListener(String.class, (channel, kind) -> catchUp(kind.trim()));
            } catch (RuntimeException e) {
                log.warn("cannot subscribe to semantic model announcements (periodic check only): {}", e.toString());
            }
        }
        models.keySet().forEach(this::catchUp);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-semantic-models");
            t.setDaemon(true);
            return t;
        });
        long ms = catchUpInterval.toMillis();
        executor.scheduleWithFixedDelay(() -> models.keySet().forEach(this::catchUp), ms, ms, TimeUnit.MILLISECONDS);
        catchUp = executor;
    }

    @Override
    public void stop() {
        running = false;
        if (topic != null && listenerId >= 0) {
            try {
                topic.removeListener(listenerId);
            } catch (RuntimeException e) {
                log.debug("removing the semantic model listener: {}", e.toString());
            }
            listenerId = -1;
        }
        ScheduledExecutorService executor = catchUp;
        if (executor != null) {
            executor.shutdownNow();
            catchUp = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
