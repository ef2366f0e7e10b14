package io.sluice.governance.route;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Configured models and their fallback chains (primary → light → ...), validated when loaded: a
 * fallback to an unknown model or a cycle is refused with a message that names it.
 */
public final class ModelRoutes {

    /**
     * @param name     the provider's model name (e.g. {@code gpt-4o-mini})
     * @param fallback the configured model to try when this one fails; null = end of the chain
     */
    public record Model(String name, String fallback) {
        public Model {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a model needs a provider model name");
            }
        }
    }

    private final Map<String, Model> models;
    private final Map<String, List<String>> chains = new LinkedHashMap<>();

    private ModelRoutes(Map<String, Model> models) {
        this.models = Map.copyOf(models);
        for (String key : models.keySet()) {
            chains.put(key, List.copyOf(resolve(key)));
        }
    }

    /** @throws InvalidRouteException for an unknown fallback or a cycle */
    public static ModelRoutes of(Map<String, Model> models) {
        Objects.requireNonNull(models, "models");
        return new ModelRoutes(models);
    }

    /** Keys of the chain starting at {@code head}, in the order they are tried. */
    public List<String> chain(String head) {
        List<String> chain = chains.get(head);
        if (chain == null) {
            throw new InvalidRouteException("unknown model '" + head + "'; configured: " + models.keySet());
        }
        return chain;
    }

    public boolean contains(String key) {
        return models.containsKey(key);
    }

    /** The provider's name of a configured model. */
    public String providerModel(String key) {
        return chain(key).isEmpty() ? key : models.get(key).name();
    }

    public Map<String, Model> models() {
        return models;
    }

    private List<String> resolve(String head) {
        List<String> path = new ArrayList<>();
        String current = head;
        while (current != null) {
            int seen = path.indexOf(current);
            if (seen >= 0) {
                List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
                cycle.add(current);
                throw new InvalidRouteException("model fallback chain has a cycle: " + String.join(" → ", cycle));
            }
            Model model = models.get(current);
            if (model == null) {
                String from = path.isEmpty() ? null : path.get(path.size() - 1);
                throw new InvalidRouteException(from == null
                    ? "unknown model '" + current + "'; configured: " + models.keySet()
                    : "model '" + from + "' falls back to unknown model '" + current + "'; configured: " + models.keySet());
            }
            path.add(current);
            current = model.fallback() == null || model.fallback().isBlank() ? null : model.fallback();
        }
        return path;
    }

    /** A model route that cannot work; refused when configuration loads. */
    public static class InvalidRouteException extends IllegalArgumentException {
        public InvalidRouteException(String message) {
            super(message);
        }
    }
}
