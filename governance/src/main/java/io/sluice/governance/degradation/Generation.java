package io.sluice.governance.degradation;

import io.sluice.governance.gateway.LlmParameters;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Sampling knobs of one lane at one level (part of {@link LevelKnobs}): a degraded level answers more
 * deterministically (lower temperature, narrower top_p), so short answers stay on the reference text.
 *
 * @param temperature 0..2; null = the provider's default (nothing sent)
 * @param topP        (0, 1]; null = the provider's default (nothing sent)
 */
public record Generation(Double temperature, Double topP) {

    public static final Generation PROVIDER_DEFAULT = new Generation(null, null);

    public Generation {
        if (temperature != null && (temperature.isNaN() || temperature < 0 || temperature > 2)) {
            throw new IllegalArgumentException("temperature must be between 0 and 2, was " + temperature);
        }
        if (topP != null && (topP.isNaN() || topP <= 0 || topP > 1)) {
            throw new IllegalArgumentException("top-p must be in (0, 1], was " + topP);
        }
    }

    /**
     * These knobs added to {@code parameters}; a value the caller set itself (a /v1 client's temperature)
     * is kept as it is.
     */
    public LlmParameters applyTo(LlmParameters parameters) {
        if ((temperature == null || parameters.has("temperature")) && (topP == null || parameters.has("top_p"))) {
            return parameters;
        }
        java.util.Map<String, JsonNode> values = new java.util.LinkedHashMap<>(parameters.values());
        if (temperature != null) {
            values.putIfAbsent("temperature", JsonNodeFactory.instance.numberNode(temperature));
        }
        if (topP != null) {
            values.putIfAbsent("top_p", JsonNodeFactory.instance.numberNode(topP));
        }
        return new LlmParameters(values);
    }
}
