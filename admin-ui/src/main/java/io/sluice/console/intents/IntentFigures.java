package io.sluice.console.intents;

import java.util.Map;

import org.springframework.stereotype.Component;

import tools.jackson.databind.ObjectMapper;

/** Reads the headline figures of a stored model's evaluation JSON for the console's version table. */
@Component("intentFigures")
public class IntentFigures {

    private final ObjectMapper json = new ObjectMapper();

    @SuppressWarnings("unchecked")
    public Map<String, Object> metrics(String evaluation) {
        Object metrics = json.readValue(evaluation, Map.class).get("metrics");
        return metrics instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
