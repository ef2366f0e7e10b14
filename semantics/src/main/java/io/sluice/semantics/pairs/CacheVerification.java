package io.sluice.semantics.pairs;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.semantics.model.Activation;
import io.sluice.semantics.model.ActiveModel;
import io.sluice.semantics.model.SemanticModels;
import io.sluice.semantics.model.StoredModel;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Training, activation and rollback of the pair verifier (kind {@code pair-verifier}) on the operator's
 * labelled pairs. A trained version is stored with its held-out evaluation; activating it without force
 * needs its L0 point to meet the L0 target and to keep at least the recall the model answering now has
 * on the same held-out part.
 */
public class CacheVerification {

    private final SemanticModels models;
    private final ActiveModel<PairModel> active;
    private final PairStore pairs;
    private final PairTrainer trainer;
    private final PairsProperties properties;
    private final Timer trainings;

    public CacheVerification(SemanticModels models, PairStore pairs, PairTrainer trainer, PairsProperties properties,
            MeterRegistry meters) {
        this.models = models;
        this.active = models.register(PairVerifier.KIND, PairModel::decode, PairModel.BUILT_IN);
        this.pairs = pairs;
        this.trainer = trainer;
        this.properties = properties;
        this.trainings = Timer.builder("sluice.semantics.pairs.training").description("pair verifier trainings")
            .register(meters);
    }

    public ActiveModel<PairModel> active() {
        return active;
    }

    public PairsProperties properties() {
        return properties;
    }

    /** Trains on every stored pair and stores the new version (not yet answering). */
    public StoredModel train(Map<String, Double> levelCosine, String actor, String note) {
        List<LabelledPair> all = pairs.all();
        PairTrainer.Result result = trainings.record(() -> trainer.train(all, active.get(), levelCosine));
        return models.save(PairVerifier.KIND, result.model().encode(), result.evaluationJson(),
            note == null || note.isBlank() ? "trained on " + all.size() + " pairs" : note, actor);
    }

    /**
     * Puts a stored version in service. Without {@code force}, refuses one whose held-out L0 point misses
     * the L0 target or whose L0 recall is below the answering model's on the same held-out part.
     */
    public Activation.Action activate(long version, boolean force, String actor, String reason) {
        StoredModel stored = models.find(PairVerifier.KIND, version)
            .orElseThrow(() -> new java.util.NoSuchElementException("no stored pair-verifier v" + version));
        if (!force) {
            String why = notBetter(stored);
            if (why != null) {
                throw new IllegalStateException(why);
            }
        }
        Activation.Action action = force ? Activation.Action.FORCE : Activation.Action.ACTIVATE;
        models.activate(PairVerifier.KIND, version, action, actor, reason == null ? "" : reason);
        return action;
    }

    private String notBetter(StoredModel stored) {
        JsonNode evaluation = JsonMapper.builder().build().readTree(stored.evaluation() == null ? "{}" : stored.evaluation());
        JsonNode l0 = null;
        for (JsonNode p : evaluation.path("points")) {
            if ("L0".equals(p.path("level").asString())) {
                l0 = p;
            }
        }
        if (l0 == null || l0.path("threshold").asDouble(2) > 1) {
            return "v" + stored.version() + " has no L0 operating point meeting the target precision "
                + properties.targetL0() + " on its held-out pairs (activate with force to use it anyway)";
        }
        for (JsonNode b : evaluation.path("baseline")) {
            if ("L0".equals(b.path("level").asString()) && b.path("precision").asDouble() >= properties.targetL0()
                    && b.path("recall").asDouble() > l0.path("recall").asDouble()) {
                return "v" + stored.version() + " has a lower L0 recall (" + l0.path("recall").asDouble()
                    + ") than the model answering now (" + b.path("recall").asDouble()
                    + ") on the same held-out pairs (activate with force to use it anyway)";
            }
        }
        return null;
    }

    public Optional<StoredModel> rollback(String actor, String reason) {
        return models.rollback(PairVerifier.KIND, actor, reason == null ? "" : reason);
    }

    public List<StoredModel> versions(int limit) {
        return models.versions(PairVerifier.KIND, limit);
    }

    public List<Activation> history(int limit) {
        return models.history(PairVerifier.KIND, limit);
    }
}
