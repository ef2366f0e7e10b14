package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sluice.semantics.intent.IntentModel;

import org.junit.jupiter.api.Test;

/** The LLM intent prompt built from the operator's taxonomy: every intent named, bounded in size. */
class LlmIntentPromptTest {

    static List<LlmIntentEnhancer.Listed> taxonomy(int intents, int descriptionLength) {
        List<LlmIntentEnhancer.Listed> out = new ArrayList<>();
        for (int i = 0; i < intents; i++) {
            Priority p = i % 7 == 0 ? Priority.S : i % 3 == 0 ? Priority.A : Priority.B;
            out.add(new LlmIntentEnhancer.Listed("intent_" + i, p, "meaning of intent " + i + " "
                + "x".repeat(Math.max(0, descriptionLength - 20))));
        }
        return out;
    }

    @Test
    void aSeventySevenIntentTaxonomyIsListedWholeWithKeysClassesAndDescriptions() {
        LlmIntentEnhancer.Prompt prompt = LlmIntentEnhancer.prompt(taxonomy(77, 50));

        assertThat(prompt.omitted()).isZero();
        for (int i = 0; i < 77; i++) {
            assertThat(prompt.whitelist()).contains("intent_" + i);
            assertThat(prompt.system()).contains("intent_" + i + " (");
        }
        assertThat(prompt.system()).contains("intent_0 (S): meaning of intent 0").contains("intent_3 (A): meaning of intent 3");
        assertThat(prompt.whitelist()).contains(IntentModel.OUT_OF_DOMAIN).doesNotContain("promotion", "complaint");
        assertThat(prompt.classes()).containsEntry("intent_7", Priority.S).containsEntry("intent_1", Priority.B)
            .containsEntry(IntentModel.OUT_OF_DOMAIN, Priority.B);
        assertThat(prompt.system().length()).isLessThan(LlmIntentEnhancer.MAX_LIST_CHARS + 600);
    }

    @Test
    void longDescriptionsAreCutAndDroppedFromTheLeastUrgentFirst() {
        LlmIntentEnhancer.Prompt prompt = LlmIntentEnhancer.prompt(taxonomy(77, 2_000));

        assertThat(prompt.omitted()).isZero();   // every key still listed
        assertThat(prompt.whitelist()).hasSize(78);
        assertThat(prompt.system().length()).isLessThan(LlmIntentEnhancer.MAX_LIST_CHARS + 600);
        assertThat(prompt.system()).doesNotContain("x".repeat(LlmIntentEnhancer.MAX_DESCRIPTION));
        assertThat(prompt.system()).contains("intent_0 (S): meaning of intent 0");   // S keeps its description
        assertThat(prompt.system()).containsPattern("(?m)^intent_\\d+ \\(B\\)$");          // B lost it first
    }

    @Test
    void aTaxonomyTooLargeForThePromptKeepsItsUrgentIntentsAndSaysHowManyAreLeftOut() {
        LlmIntentEnhancer.Prompt prompt = LlmIntentEnhancer.prompt(taxonomy(2_000, 40));

        assertThat(prompt.omitted()).isPositive();
        assertThat(prompt.system().length()).isLessThan(LlmIntentEnhancer.MAX_LIST_CHARS + 600);
        for (int i = 0; i < 2_000; i += 7) {
            assertThat(prompt.whitelist()).contains("intent_" + i);   // every S intent stays nameable
        }
    }
}
