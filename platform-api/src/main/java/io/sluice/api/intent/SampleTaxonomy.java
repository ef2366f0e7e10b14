package io.sluice.api.intent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.intent.TaxonomyChange;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;

/**
 * The shipped sample taxonomy (the sample kNN's labelled examples, one intent per label with the class
 * its namesake has), loaded into an empty taxonomy so an operator starts from something to edit.
 */
public final class SampleTaxonomy {

    private static final Logger log = LoggerFactory.getLogger(SampleTaxonomy.class);

    static final Map<ExampleLabel, String> DESCRIPTIONS = Map.of(
        ExampleLabel.COMPLAINT, "complains about service, staff or the shop",
        ExampleLabel.URGENT, "danger, fraud, a stolen account or card: cannot wait",
        ExampleLabel.PAYMENT, "payments and payments that went wrong",
        ExampleLabel.ORDER_PROBLEM, "orders and what went wrong with them",
        ExampleLabel.SHIPPING, "shipping and delivery",
        ExampleLabel.RETURNS, "returns, exchanges and refunds",
        ExampleLabel.COUPON, "coupons, discounts, campaigns",
        ExampleLabel.ACCOUNT, "login, password, account settings",
        ExampleLabel.OTHER, "anything else");

    private SampleTaxonomy() {
    }

    public static List<IntentDefinition> read(Resource examples) {
        List<IntentExamples.Example> rows;
        try (InputStream in = examples.getInputStream()) {
            rows = IntentExamples.read(in, examples.getDescription());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<ExampleLabel, List<String>> byLabel = new LinkedHashMap<>();
        rows.forEach(r -> byLabel.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r.text()));
        List<IntentDefinition> out = new ArrayList<>();
        byLabel.forEach((label, texts) -> out.add(new IntentDefinition(label.code(), label.standsFor().priority().name(),
            DESCRIPTIONS.getOrDefault(label, ""), texts.stream().distinct().toList(), "sample", null)));
        return out;
    }

    /** Loads the sample when the taxonomy is empty; another instance doing the same at once is harmless. */
    public static void seedIfEmpty(IntentTaxonomy taxonomy, Resource examples) {
        try {
            if (!taxonomy.isEmpty()) {
                return;
            }
            TaxonomyChange.Applied applied = taxonomy.apply(new TaxonomyChange(read(examples), List.of(), false), "sample");
            log.info("intent taxonomy was empty: loaded the sample ({} intents)", applied.intentsCreated());
        } catch (RuntimeException e) {
            log.warn("could not load the sample intent taxonomy: {}", e.toString());
        }
    }
}
