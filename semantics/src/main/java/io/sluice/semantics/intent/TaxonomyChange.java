package io.sluice.semantics.intent;

import java.util.List;

/**
 * What an import or an edit changes: intents to create or update (with their examples) and examples
 * for intents that already exist.
 *
 * @param replaceExamples true = an updated intent's examples are replaced by the given ones (an edit);
 *                        false = added to (an import)
 */
public record TaxonomyChange(List<IntentDefinition> intents, List<LabelledText> examples, boolean replaceExamples) {

    public TaxonomyChange {
        intents = List.copyOf(intents);
        examples = List.copyOf(examples);
    }

    /** What an applied change did. */
    public record Applied(int intentsCreated, int intentsUpdated, int examplesGiven) {
    }
}
