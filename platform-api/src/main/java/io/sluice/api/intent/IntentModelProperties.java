package io.sluice.api.intent;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operator-trained intent model ({@code sluice.semantics.intent.*}, docs/semantics.md).
 *
 * @param enabled           false = never answer with a trained model (the rules and enhancers decide)
 * @param seedSample        load the shipped sample taxonomy into an empty taxonomy at start
 * @param ruleOverrideAbove an S rule at least this confident overrides the model (1.0 = a strong
 *                          complaint or urgency keyword; above 1 = never)
 * @param minConfidence     trained models: top calibrated probability below this is out of domain → B
 * @param sFloor            trained models: S probability mass at which a message is S
 * @param heldOutFraction   part of every intent's examples held out for evaluation
 * @param notWorseTolerance a new model is activated when its priority accuracy is not lower and its
 *                          S→B rate not higher than the active one's by more than this, on the same split
 */
@Validated
@ConfigurationProperties("sluice.semantics.intent")
public record IntentModelProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("true") boolean seedSample,
        @DefaultValue("1.0") @DecimalMin("0.0") @DecimalMax("2.0") double ruleOverrideAbove,
        @DefaultValue("0.3") @DecimalMin("0.0") @DecimalMax("0.99") double minConfidence,
        @DefaultValue("0.4") @DecimalMin("0.01") @DecimalMax("1.0") double sFloor,
        @DefaultValue("0.2") @DecimalMin("0.05") @DecimalMax("0.5") double heldOutFraction,
        @DefaultValue("0.005") @DecimalMin("0.0") @DecimalMax("0.2") double notWorseTolerance) {
}
