package io.sluice.app.support;

import io.sluice.api.intent.IntentProperties;
import io.sluice.api.intent.SampleTaxonomy;
import io.sluice.semantics.intent.IntentTaxonomy;
import io.sluice.semantics.model.SemanticModels;

/**
 * The intent taxonomy and the intent model kind are shared by every test on the test database: a test that
 * replaces them puts the sample taxonomy and "no model" back afterwards.
 */
public final class SampleIntents {

    private SampleIntents() {
    }

    public static void putBack(SemanticModels models, IntentTaxonomy taxonomy, IntentProperties intentProperties) {
        while (models.rollback("intent", "test", "clean up").isPresent()) {
            // undo every activation the test made
        }
        taxonomy.definitions().forEach(i -> taxonomy.delete(i.key()));
        SampleTaxonomy.seedIfEmpty(taxonomy, intentProperties.knn().examples());
    }
}
