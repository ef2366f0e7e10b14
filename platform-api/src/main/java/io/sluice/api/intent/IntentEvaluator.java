package io.sluice.api.intent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sluice.semantics.evaluation.EvaluationReport;
import io.sluice.semantics.evaluation.Evaluator;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentScores;
import io.sluice.semantics.intent.IntentTaxonomy;

import tools.jackson.databind.ObjectMapper;

/**
 * Evaluator kind {@code intent}: labelled messages ({@code text}, and {@code intent} and/or
 * {@code priority}) classified by the chat's own decision ({@link OnlineIntent}, path {@code chat}).
 * An item labelled with an intent only is expected in that intent's class.
 */
public final class IntentEvaluator implements Evaluator {

    /** Misses listed in the report's details, at most. */
    static final int MISSES = 50;

    private final OnlineIntent online;
    private final IntentTaxonomy taxonomy;
    private final TrainedIntents trained;
    private final ObjectMapper json;

    public IntentEvaluator(OnlineIntent online, IntentTaxonomy taxonomy, TrainedIntents trained, ObjectMapper json) {
        this.online = online;
        this.taxonomy = taxonomy;
        this.trained = trained;
        this.json = json;
    }

    @Override
    public String kind() {
        return "intent";
    }

    @Override
    public String expectedFields() {
        return "text, intent and/or priority (S, A or B)";
    }

    @Override
    public EvaluationReport evaluate(List<Map<String, String>> items) {
        Map<String, String> classes = new LinkedHashMap<>();
        for (IntentDefinition intent : taxonomy.definitions()) {
            classes.put(intent.key(), intent.priority());
        }
        List<String[]> labelled = new ArrayList<>();
        int n = 0;
        for (Map<String, String> item : items) {
            n++;
            String text = first(item, "text", "message");
            String intent = first(item, "intent");
            String priority = first(item, "priority");
            if (text == null) {
                throw new IllegalArgumentException("item " + n + ": no text");
            }
            if (intent != null) {
                intent = intent.toLowerCase(Locale.ROOT);
            }
            if (priority != null) {
                try {
                    priority = IntentDefinition.requirePriority(priority);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("item " + n + ": " + e.getMessage());
                }
            } else if (intent != null) {
                priority = classes.get(intent);
                if (priority == null) {
                    throw new IllegalArgumentException("item " + n + ": unknown intent (give its priority too)");
                }
            } else {
                throw new IllegalArgumentException("item " + n + ": neither an intent nor a priority");
            }
            labelled.add(new String[] {text, intent, priority});
        }
        if (labelled.isEmpty()) {
            throw new IllegalArgumentException("no items");
        }
        long version = trained.version();
        List<IntentScores.Judged> judged = new ArrayList<>();
        List<Map<String, Object>> misses = new ArrayList<>();
        Map<String, Integer> sources = new LinkedHashMap<>();
        for (int i = 0; i < labelled.size(); i++) {
            String[] l = labelled.get(i);
            IntentResult result = online.classify(l[0], IntentPath.CHAT);
            judged.add(new IntentScores.Judged(l[1], l[2], result.code(), result.priority().name()));
            sources.merge(result.source(), 1, Integer::sum);
            if (!l[2].equals(result.priority().name()) && misses.size() < MISSES) {
                Map<String, Object> miss = new LinkedHashMap<>();
                miss.put("item", i + 1);
                miss.put("expected", l[1] == null ? l[2] : l[1] + "/" + l[2]);
                miss.put("decided", result.code() + "/" + result.priority().name());
                miss.put("source", result.source());
                misses.add(miss);
            }
        }
        IntentScores.Summary summary = IntentScores.of(judged);
        Map<String, Object> details = IntentScores.details(summary);
        details.put("sources", sources);
        details.put("misses", misses);
        return new EvaluationReport(kind(), summary.items(), summary.metrics(), json.writeValueAsString(details), version,
            Instant.now());
    }

    private static String first(Map<String, String> item, String... names) {
        for (String name : names) {
            String value = item.get(name);
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }
}
