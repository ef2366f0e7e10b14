package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentTaxonomy;

/**
 * The intents the LLM intent prompt lists: the operator's active taxonomy. With a trained model
 * answering, the model's intents (their classes as trained, descriptions from the taxonomy); without
 * one, the taxonomy's intents — unless it is still the shipped sample, whose labels the built-in
 * prompt already covers (empty = the built-in list). Read from PostgreSQL at most every
 * {@code refreshNanos}: the LLM path must not query the database per message.
 */
final class TaxonomyCatalog implements Supplier<List<LlmIntentEnhancer.Listed>> {

    private static final Set<String> SAMPLE_CODES = sampleCodes();

    private final Supplier<IntentTaxonomy> taxonomy;
    private final Supplier<IntentModel> model;
    private final long refreshNanos;
    private final LongSupplier clock;
    private volatile Cached cached;

    private record Cached(long at, IntentModel model, List<LlmIntentEnhancer.Listed> listed) {
    }

    TaxonomyCatalog(Supplier<IntentTaxonomy> taxonomy, Supplier<IntentModel> model, long refreshNanos, LongSupplier clock) {
        this.taxonomy = taxonomy;
        this.model = model;
        this.refreshNanos = refreshNanos;
        this.clock = clock;
    }

    @Override
    public List<LlmIntentEnhancer.Listed> get() {
        IntentModel m = model.get();
        Cached c = cached;
        long now = clock.getAsLong();
        if (c != null && c.model() == m && now - c.at() < refreshNanos) {
            return c.listed();
        }
        List<LlmIntentEnhancer.Listed> listed = read(m);
        cached = new Cached(now, m, listed);
        return listed;
    }

    private List<LlmIntentEnhancer.Listed> read(IntentModel m) {
        IntentTaxonomy t = taxonomy.get();
        List<IntentDefinition> definitions = t == null ? List.of() : t.definitions();
        Map<String, IntentDefinition> byKey = new HashMap<>();
        definitions.forEach(d -> byKey.put(d.key(), d));
        List<LlmIntentEnhancer.Listed> out = new ArrayList<>();
        if (m != null) {
            for (int c = 0; c < m.keys().size(); c++) {
                IntentDefinition d = byKey.get(m.keys().get(c));
                out.add(new LlmIntentEnhancer.Listed(m.keys().get(c), Priority.valueOf(m.priorities().get(c)),
                    d == null ? "" : d.description()));
            }
            return List.copyOf(out);
        }
        if (definitions.stream().allMatch(d -> SAMPLE_CODES.contains(d.key()))) {
            return List.of();   // still the sample: the built-in prompt lists it (in finer intents)
        }
        definitions.forEach(d -> out.add(new LlmIntentEnhancer.Listed(d.key(), Priority.valueOf(d.priority()),
            d.description())));
        return List.copyOf(out);
    }

    private static Set<String> sampleCodes() {
        Set<String> codes = new java.util.HashSet<>();
        for (ExampleLabel label : ExampleLabel.values()) {
            codes.add(label.code());
        }
        for (Intent intent : Intent.values()) {
            codes.add(intent.code());
        }
        return Set.copyOf(codes);
    }
}
