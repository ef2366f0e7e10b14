package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmParameters;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.intent.IntentParser;
import io.sluice.semantics.intent.IntentModel;

/**
 * Asks the LLM on the gateway's {@link Lane#INTENT} lane (its own permits, 1.5 s budget, one retry,
 * a breaker that opens after 3 consecutive failures) with a compact prompt listing the intents it may
 * answer — the operator's active taxonomy (key, class, description; bounded in size) when there is one,
 * else the built-in sample list — and reads the answer with the pure {@link IntentParser}. Anything but a whitelisted intent
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

    /** One intent as the prompt lists it. */
    public record Listed(String key, Priority priority, String description) {
    }

    /**
     * The prompt and what it allows: the listed keys (the parser's whitelist) and each one's class.
     *
     * @param omitted intents of the taxonomy left out to keep the prompt bounded (0 normally)
     */
    public record Prompt(String system, Set<String> whitelist, Map<String, Priority> classes, int omitted) {
    }

    /** Characters of intent lines a prompt may hold (a 77-intent taxonomy with short descriptions fits). */
    static final int MAX_LIST_CHARS = 6_000;
    /** A description is cut here: the key and a line of meaning are what the LLM needs. */
    static final int MAX_DESCRIPTION = 120;

    static final Prompt BUILT_IN = new Prompt(PROMPT, WHITELIST, builtInClasses(), 0);

    private final LlmGateway gateway;
    private final Set<IntentPath> enabledFor;
    private final int maxTokens;
    private final BooleanSupplier llmSpare;
    private final MeterRegistry meters;
    private final Supplier<LlmParameters> sampling;
    private final Supplier<List<Listed>> catalog;
    private volatile Prompt prompt = BUILT_IN;
    private volatile List<Listed> promptOf = List.of();

    public LlmIntentEnhancer(LlmGateway gateway, Set<IntentPath> enabledFor, int maxTokens, BooleanSupplier llmSpare,
            MeterRegistry meters) {
        this(gateway, enabledFor, maxTokens, llmSpare, meters, () -> LlmParameters.NONE, List::of);
    }

    /** @param sampling the level's intent-lane temperature / top_p, read per call */
    public LlmIntentEnhancer(LlmGateway gateway, Set<IntentPath> enabledFor, int maxTokens, BooleanSupplier llmSpare,
            MeterRegistry meters, Supplier<LlmParameters> sampling) {
        this(gateway, enabledFor, maxTokens, llmSpare, meters, sampling, List::of);
    }

    /**
     * @param sampling the level's intent-lane temperature / top_p, read per call
     * @param catalog  the operator's intents the LLM may answer with (the active taxonomy); empty = the
     *                 built-in sample list
     */
    public LlmIntentEnhancer(LlmGateway gateway, Set<IntentPath> enabledFor, int maxTokens, BooleanSupplier llmSpare,
            MeterRegistry meters, Supplier<LlmParameters> sampling, Supplier<List<Listed>> catalog) {
        this.sampling = sampling;
        this.catalog = catalog;
        this.gateway = gateway;
        this.enabledFor = Set.copyOf(enabledFor);
        this.maxTokens = maxTokens;
        this.llmSpare = llmSpare;
        this.meters = meters;
    }

    /** The prompt for the catalog as it is now (rebuilt only when the catalog changed). */
    Prompt currentPrompt() {
        List<Listed> listed;
        try {
            listed = catalog.get();
        } catch (RuntimeException e) {
            listed = List.of();   // the taxonomy cannot be read now: the built-in list still works
        }
        if (listed == null || listed.isEmpty()) {
            return BUILT_IN;
        }
        if (!listed.equals(promptOf)) {
            prompt = prompt(listed);
            promptOf = List.copyOf(listed);
        }
        return prompt;
    }

    /**
     * A prompt listing the operator's intents ({@code key: description}), bounded to {@link #MAX_LIST_CHARS}:
     * descriptions are cut to {@link #MAX_DESCRIPTION}; if the list is still too long, descriptions are
     * dropped (B intents first, then A, then S); if even the bare keys do not fit, B intents, then A,
     * are left out (the rules and the model still know them; an urgent request must stay nameable).
     */
    public static Prompt prompt(List<Listed> intents) {
        List<Listed> ordered = new ArrayList<>(intents);
        ordered.sort(Comparator.comparing((Listed l) -> l.priority().ordinal()).thenComparing(Listed::key));
        String[] lines = new String[ordered.size()];
        int total = 0;
        for (int i = 0; i < ordered.size(); i++) {
            lines[i] = line(ordered.get(i), true);
            total += lines[i].length() + 1;
        }
        // drop descriptions from the least urgent up until the list fits
        for (int i = ordered.size() - 1; i >= 0 && total > MAX_LIST_CHARS; i--) {
            String bare = line(ordered.get(i), false);
            total -= lines[i].length() - bare.length();
            lines[i] = bare;
        }
        int kept = ordered.size();
        while (kept > 1 && total > MAX_LIST_CHARS) {
            kept--;
            total -= lines[kept].length() + 1;
        }
        StringBuilder text = new StringBuilder("""
            Classify the customer-service message. Answer with JSON only: \
            {"intent": "<one of the intents>", "confidence": <0.0-1.0>}
            Answer "out_of_domain" when the message fits none of them.
            Intents (class S = urgent or a complaint, A = something went wrong, B = a question):
            """);
        Set<String> whitelist = new java.util.LinkedHashSet<>();
        Map<String, Priority> classes = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kept; i++) {
            text.append(lines[i]).append('\n');
            whitelist.add(ordered.get(i).key());
            classes.put(ordered.get(i).key(), ordered.get(i).priority());
        }
        whitelist.add(IntentModel.OUT_OF_DOMAIN);
        classes.putIfAbsent(IntentModel.OUT_OF_DOMAIN, Priority.B);
        return new Prompt(text.toString().stripTrailing(), Set.copyOf(whitelist), Map.copyOf(classes),
            ordered.size() - kept);
    }

    private static String line(Listed l, boolean described) {
        String d = l.description() == null ? "" : l.description().replaceAll("\\s+", " ").strip();
        if (d.length() > MAX_DESCRIPTION) {
            d = d.substring(0, MAX_DESCRIPTION - 1) + "…";
        }
        return l.key() + " (" + l.priority() + ")" + (described && !d.isEmpty() ? ": " + d : "");
    }

    private static Map<String, Priority> builtInClasses() {
        Map<String, Priority> out = new java.util.HashMap<>();
        for (Intent intent : Intent.values()) {
            out.put(intent.code(), intent.priority());
        }
        return Map.copyOf(out);
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
        Prompt p = currentPrompt();
        LlmOutcome answer = gateway.call(new LlmRequest(Lane.INTENT, null,
            List.of(LlmMessage.system(p.system()), LlmMessage.user(message)), maxTokens, null,
            IntentParser.check(p.whitelist()), sampling.get(), io.sluice.governance.gateway.RequestType.INTENT));
        if (answer instanceof LlmOutcome.Answered answered) {
            // the gateway's check already refused anything else; a rejection here means a gateway without checks
            if (IntentParser.parse(answered.text(), p.whitelist()) instanceof IntentParser.Result.Parsed parsed) {
                String key = parsed.intent().toLowerCase(Locale.ROOT);
                return outcome("answered", Optional.of(new IntentResult(key, p.classes().getOrDefault(key, Priority.B),
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
