package io.sluice.api.intent;

import java.util.concurrent.atomic.AtomicLong;

import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.model.ActiveModel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trained intent model this instance answers with (semantic model kind {@code intent}), or none:
 * then the rules (and the sample kNN, the LLM) decide as before. A model trained on another embedding
 * model or feature layout is never used (its weights would mean nothing here).
 */
public final class TrainedIntents {

    public static final String KIND = "intent";

    private static final Logger log = LoggerFactory.getLogger(TrainedIntents.class);

    private final ActiveModel<IntentModel> active;
    private final IntentFeatures features;
    private final AtomicLong warnedAbout = new AtomicLong(-1);

    public TrainedIntents(ActiveModel<IntentModel> active, IntentFeatures features) {
        this.active = active;
        this.features = features;
    }

    /** The active model when it fits this instance's features, else null. */
    public IntentModel model() {
        ActiveModel.Loaded<IntentModel> loaded = active.loaded();
        IntentModel model = loaded.model();
        if (model == null) {
            return null;
        }
        if (!fits(model)) {
            if (warnedAbout.getAndSet(loaded.version()) != loaded.version()) {
                log.warn("intent model v{} was trained on {} ({} features), this instance embeds with {} ({}): not used",
                    loaded.version(), model.embedder(), model.features(), features.embedderId(), features.size());
            }
            return null;
        }
        return model;
    }

    public boolean fits(IntentModel model) {
        return model.embedder().equals(features.embedderId()) && model.features() == features.size();
    }

    /** The stored version answering (0 = none: the rules decide). */
    public long version() {
        return model() == null ? 0 : active.version();
    }

    public IntentFeatures features() {
        return features;
    }
}
