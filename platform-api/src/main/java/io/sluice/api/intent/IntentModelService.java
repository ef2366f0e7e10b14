package io.sluice.api.intent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentModelCodec;
import io.sluice.semantics.intent.IntentScores;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.intent.IntentTrainer;
import io.sluice.semantics.intent.IntentTrainings;
import io.sluice.semantics.intent.IntentTrainings.Training;
import io.sluice.semantics.intent.LabelledText;
import io.sluice.semantics.model.Activation.Action;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.model.StoredModel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.ObjectMapper;

/**
 * Trains, evaluates, stores, activates and rolls back intent models. Training runs on one background
 * thread (embedding thousands of examples takes seconds), one at a time in the whole cluster; its state,
 * phase and result are a {@link Training} row in PostgreSQL ({@link IntentTrainings}) that the API and
 * console of every instance read. A trained version is evaluated on its held-out split through the
 * online decision, and so is what answers now (the active model, or the rules when none); it is
 * activated only when not worse there, or when forced.
 */
public class IntentModelService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IntentModelService.class);

    /** What to do with a trained version. */
    public record Request(boolean activate, boolean force, String note) {
    }

    private final IntentTaxonomy taxonomy;
    private final SemanticModels models;
    private final TrainedIntents trained;
    private final OnlineIntent online;
    private final IntentModelProperties properties;
    private final ObjectMapper json;
    private final MeterRegistry meters;
    private final IntentModelCodec codec = new IntentModelCodec();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sluice-intent-training");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sluice-intent-training-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private final IntentTrainings trainings;
    private final String instance;

    /**
     * @param trainings the cluster-wide training state
     * @param instance  names this instance in it
     */
    public IntentModelService(IntentTaxonomy taxonomy, SemanticModels models, TrainedIntents trained, OnlineIntent online,
            IntentModelProperties properties, ObjectMapper json, MeterRegistry meters, IntentTrainings trainings,
            String instance) {
        this.trainings = trainings;
        this.instance = instance;
        this.taxonomy = taxonomy;
        this.models = models;
        this.trained = trained;
        this.online = online;
        this.properties = properties;
        this.json = json;
        this.meters = meters;
    }

    /**
     * Starts a training run on this instance; empty when one runs anywhere in the cluster (its state is
     * in PostgreSQL, so every instance's API and console show it).
     */
    public Optional<Training> start(Request request, String actor) {
        Optional<Training> claimed = trainings.start(actor, instance);
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        UUID id = claimed.get().id();
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> {
            try {
                trainings.heartbeat(id);
            } catch (RuntimeException e) {
                log.debug("intent training {} heartbeat: {}", id, e.toString());
            }
        }, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
        try {
            worker.execute(() -> {
                try {
                    Result r = run(request, actor, phase -> trainings.phase(id, phase));
                    trainings.done(id, r.version(), r.activated(), r.decision(), r.examples());
                } catch (RuntimeException e) {
                    log.warn("intent training {} failed: {}", id, e.toString());
                    meters.counter("sluice.semantics.intent.trainings", "outcome", "failed").increment();
                    trainings.failed(id, e instanceof IllegalArgumentException ? e.getMessage() : "training failed");
                } finally {
                    beat.cancel(false);
                }
            });
        } catch (RuntimeException rejected) {
            beat.cancel(false);
            trainings.failed(id, "this instance is shutting down");
            throw rejected;
        }
        return claimed;
    }

    /** How often the training instance proves it is alive (a run silent for 6 beats counts as abandoned). */
    static final Duration HEARTBEAT = Duration.ofSeconds(10);
    static final Duration STALE_AFTER = HEARTBEAT.multipliedBy(6);

    /** A training by id, from any instance. */
    public Optional<Training> training(UUID id) {
        return trainings.find(id);
    }

    /** The running training anywhere, else the newest one. */
    public Optional<Training> currentTraining() {
        return trainings.current();
    }

    public List<Training> recentTrainings(int limit) {
        return trainings.recent(limit);
    }

    /** What a training produced. */
    public record Result(long version, boolean activated, String decision, int examples) {
    }

    /** Trains now, on the calling thread (the batch job and tests use it); {@code phase} hears each step. */
    public Result run(Request request, String actor, Consumer<String> phase) {
        long t0 = System.nanoTime();
        phase.accept("reading the taxonomy");
        IntentTrainer.Trained result = new IntentTrainer(texts -> trained.features().ofAll(texts))
            .train(taxonomy.all(), trained.features().embedderId(),
                new IntentTrainer.Settings(properties.heldOutFraction(), properties.minConfidence(), properties.sFloor()),
                phase);
        phase.accept("evaluating on the held-out split");
        IntentModel candidate = result.model();
        IntentScores.Summary mine = evaluate(candidate, candidate.heldOut(), result::featuresOf);
        IntentModel active = trained.model();
        IntentScores.Summary theirs = evaluate(active, candidate.heldOut(), result::featuresOf);
        boolean notWorse = mine.notWorseThan(theirs, properties.notWorseTolerance());
        Map<String, Object> evaluation = evaluation(mine, theirs, active == null ? 0 : trained.version(), result);
        phase.accept("storing");
        StoredModel stored = models.save(TrainedIntents.KIND, codec.encode(candidate), json.writeValueAsString(evaluation),
            request.note(), actor);
        String decision = notWorse ? "not worse than the model answering now on the held-out split"
            : "worse than the model answering now on the held-out split";
        boolean activate = request.activate() && (notWorse || request.force());
        if (activate) {
            models.activate(TrainedIntents.KIND, stored.version(), notWorse ? Action.ACTIVATE : Action.FORCE, actor,
                decision);
        }
        Timer.builder("sluice.semantics.intent.training").register(meters).record(Duration.ofNanos(System.nanoTime() - t0));
        meters.counter("sluice.semantics.intent.trainings", "outcome", activate ? "activated" : "stored").increment();
        log.info("intent model v{} trained on {} examples in {} ms (C={}): priority accuracy {} (now {}), S->B {} (now {}); {}",
            stored.version(), result.trainingExamples(), result.trainingMillis(), result.c(), mine.priorityAccuracy(),
            theirs.priorityAccuracy(), mine.sToB(), theirs.sToB(), activate ? "activated" : "not activated");
        return new Result(stored.version(), activate, decision, result.trainingExamples() + result.heldOut().size());
    }

    /**
     * Activates a stored version when it is not worse than the model answering now on the version's own
     * held-out split (or when forced).
     *
     * @throws IllegalArgumentException no such version
     * @throws IllegalStateException    worse and not forced (the message says by how much)
     */
    public StoredModel activate(long version, boolean force, String actor) {
        byte[] payload = models.payload(TrainedIntents.KIND, version).orElseThrow(() ->
            new IllegalArgumentException("no stored intent model v" + version));
        IntentModel candidate = codec.decode(payload);
        if (!trained.fits(candidate)) {
            throw new IllegalStateException("intent model v" + version + " was trained on another embedding model");
        }
        IntentScores.Summary mine = evaluate(candidate, candidate.heldOut());
        IntentScores.Summary theirs = evaluate(trained.model(), candidate.heldOut());
        boolean notWorse = mine.notWorseThan(theirs, properties.notWorseTolerance());
        if (!notWorse && !force) {
            throw new IllegalStateException(String.format(java.util.Locale.ROOT,
                "v%d is worse than the model answering now on its held-out split (priority accuracy %.3f vs %.3f, "
                    + "S->B %.3f vs %.3f); activate with force=true to override", version, mine.priorityAccuracy(),
                theirs.priorityAccuracy(), mine.sToB(), theirs.sToB()));
        }
        models.activate(TrainedIntents.KIND, version, notWorse ? Action.ACTIVATE : Action.FORCE, actor,
            notWorse ? "not worse on the held-out split" : "forced");
        return models.find(TrainedIntents.KIND, version).orElseThrow();
    }

    public Optional<StoredModel> rollback(String actor, String reason) {
        return models.rollback(TrainedIntents.KIND, actor, reason);
    }

    public List<StoredModel> versions(int limit) {
        return models.versions(TrainedIntents.KIND, limit);
    }

    public Optional<StoredModel> find(long version) {
        return models.find(TrainedIntents.KIND, version);
    }

    /** The decisions of the online path with {@code model} (null = no model) on labelled texts. */
    IntentScores.Summary evaluate(IntentModel model, List<LabelledText> items) {
        return evaluate(model, items, text -> null);
    }

    /** @param known features already computed for a text (or null: embedded now) */
    IntentScores.Summary evaluate(IntentModel model, List<LabelledText> items,
            java.util.function.Function<String, float[]> known) {
        Map<String, String> classes = new LinkedHashMap<>();
        taxonomy.definitions().forEach(i -> classes.put(i.key(), i.priority()));
        if (model != null) {
            for (int c = 0; c < model.keys().size(); c++) {
                classes.putIfAbsent(model.keys().get(c), model.priorities().get(c));
            }
        }
        List<IntentScores.Judged> judged = new ArrayList<>();
        for (LabelledText item : items) {
            String expected = classes.get(item.intent());
            if (expected == null) {
                continue;   // an intent deleted since: not comparable
            }
            IntentResult result = online.classify(item.text(), IntentPath.CHAT, model, known.apply(item.text()));
            judged.add(new IntentScores.Judged(item.intent(), expected, result.code(), result.priority().name()));
        }
        return IntentScores.of(judged);
    }

    private static Map<String, Object> evaluation(IntentScores.Summary mine, IntentScores.Summary theirs, long activeVersion,
            IntentTrainer.Trained result) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("heldOut", mine.items());
        out.put("trainingExamples", result.trainingExamples());
        out.put("trainingMillis", result.trainingMillis());
        out.put("embeddingMillis", result.embeddingMillis());
        out.put("sFloor", result.model().sFloor());
        out.put("c", result.c());
        out.put("temperature", result.model().temperature());
        out.put("metrics", mine.metrics());
        out.putAll(IntentScores.details(mine));
        Map<String, Object> baseline = new LinkedHashMap<>();
        baseline.put("version", activeVersion);
        baseline.put("metrics", theirs.metrics());
        baseline.put("confusion", IntentScores.details(theirs).get("confusion"));
        out.put("answeringNow", baseline);
        return out;
    }

    @Override
    public void close() {
        worker.shutdownNow();
        heartbeats.shutdownNow();
    }
}
