package io.sluice.api.intent;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.intent.IntentParser;

/**
 * Asks the LLM on the gateway's {@link Lane#INTENT} lane (its own permits, 1.5 s budget, one retry,
 * a breaker that opens after 3 consecutive failures) with a compact prompt listing the whitelisted
 * intents, and reads the answer with the pure {@link IntentParser}. Anything but a whitelisted intent
 * — Saturated, Degraded (timeout, breaker open, unparsable …), or no provider — is "no opinion": the
 * rules and the kNN stand. An open breaker answers in microseconds, so a dead provider costs nothing.
 *
 * <p>Asked only on the paths it is enabled for, and only while {@code llmSpare} says the cluster has
 * LLM capacity to spare (the degradation level still admits lane B).
 */
public final class LlmIntentEnhancer implements IntentEnhancer {

    /** What the parser accepts: every intent's wire name. */
    public static final Set<String> WHITELIST = Arrays.stream(Intent.values()).map(Intent::code)
        .collect(Collectors.toUnmodifiableSet());

    static final String PROMPT = """
        Classify the customer-service message of an online shop. Answer with JSON only: \
        {"intent": "<one of the intents>", "confidence": <0.0-1.0>}
        Intents:
        complaint: complains about service, staff or the shop
        urgent: danger, fraud, stolen account or card, something that cannot wait
        payment: a payment went wrong (failed, charged twice, declined)
        payment_info: how to pay (methods, instalments, invoices)
        refund: asks about a refund
        order_problem: something is wrong with an order (missing, damaged, wrong item, cancel)
        order_info: a question about an order (status, change)
        logistics: shipping and delivery
        returns: returning or exchanging goods
        account: login, password, account settings
        promotion: coupons, discounts, campaigns
        general: anything else""";

    private final LlmGateway gateway;
    private final Set<IntentPath> enabledFor;
    private final int maxTokens;
    private final BooleanSupplier llmSpare;
    private final MeterRegistry meters;

    public LlmIntentEnhancer(LlmGateway gateway, Set<IntentPath> enabledFor, int maxTokens, BooleanSupplier llmSpare,
            MeterRegistry meters) {
        this.gateway = gateway;
        this.enabledFor = Set.copyOf(enabledFor);
        this.maxTokens = maxTokens;
        this.llmSpare = llmSpare;
        this.meters = meters;
    }

    @Override
    public String name() {
        return "llm";
    }

    @Override
    public boolean enabledFor(IntentPath path) {
        return enabledFor.contains(path);
    }

    @Override
    public Optional<IntentResult> refine(String message, IntentResult current) {
        if (!gateway.available()) {
            return outcome("no_provider", Optional.empty());
        }
        if (!llmSpare.getAsBoolean()) {
            return outcome("level", Optional.empty());
        }
        LlmOutcome answer = gateway.call(new LlmRequest(Lane.INTENT, null,
            List.of(LlmMessage.system(PROMPT), LlmMessage.user(message)), maxTokens, null, IntentParser.check(WHITELIST)));
        if (answer instanceof LlmOutcome.Answered answered) {
            // the gateway's check already refused anything else; a rejection here means a gateway without checks
            if (IntentParser.parse(answered.text(), WHITELIST) instanceof IntentParser.Result.Parsed parsed) {
                return outcome("answered", Optional.of(new IntentResult(Intent.valueOf(parsed.intent().toUpperCase(Locale.ROOT)),
                    parsed.confidence(), name(), List.of(answered.model()))));
            }
            return outcome("rejected", Optional.empty());
        }
        if (answer instanceof LlmOutcome.Degraded degraded) {
            return outcome(degraded.reason().name().toLowerCase(Locale.ROOT), Optional.empty());
        }
        return outcome("saturated", Optional.empty());
    }

    private Optional<IntentResult> outcome(String outcome, Optional<IntentResult> result) {
        meters.counter("sluice.chat.intent.llm", "outcome", outcome).increment();
        return result;
    }
}
