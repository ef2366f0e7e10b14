package io.sluice.governance.route;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Configured routes (primary → light → ...): each has ordered, weighted targets (provider, model) and
 * may fall back to another route. Validated when loaded: a fallback to an unknown route, a cycle, a
 * target on an unknown provider or an alias claimed twice is refused with a message that names it.
 * Clients may name a route by its key, by one of its aliases, or by its model name (the first route
 * in configuration order whose model it is), so {@code gpt-4o-mini} works as well as {@code primary}.
 */
public final class ModelRoutes {

    /** Where a route can be served: a provider, the model name there, and its share of the traffic. */
    public record Target(String provider, String model, int weight) {
        public Target {
            if (provider == null || provider.isBlank() || model == null || model.isBlank()) {
                throw new IllegalArgumentException("a route target needs a provider and a model");
            }
            if (weight < 0) {
                throw new IllegalArgumentException("a target's weight must not be negative");
            }
        }

        /** Key of its shared state (cool-down, Sentinel resource suffix). */
        public String key() {
            return provider + "|" + model;
        }
    }

    /**
     * @param name     the provider's model name of the default target (e.g. {@code gpt-4o-mini})
     * @param fallback the route tried when every target of this one failed; null = end of the chain
     * @param targets  where it is served (empty = the default provider with {@code name})
     * @param aliases  more names clients may use for it
     */
    public record Model(String name, String fallback, List<Target> targets, List<String> aliases) {
        public Model {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a model needs a provider model name");
            }
            targets = targets == null ? List.of() : List.copyOf(targets);
            aliases = aliases == null ? List.of() : List.copyOf(aliases);
        }

        public Model(String name, String fallback) {
            this(name, fallback, List.of(), List.of());
        }
    }

    /** The provider of targets that do not name one (the one-provider short form). */
    public static final String DEFAULT_PROVIDER = "default";

    private final Map<String, Model> models;
    private final Map<String, List<String>> chains = new LinkedHashMap<>();
    private final Map<String, List<Target>> targets = new LinkedHashMap<>();
    private final Map<String, String> names = new LinkedHashMap<>();

    private ModelRoutes(Map<String, Model> models, String defaultProvider, Set<String> providers) {
        this.models = Map.copyOf(models);
        for (Map.Entry<String, Model> e : models.entrySet()) {
            List<Target> list = e.getValue().targets().isEmpty()
                ? List.of(new Target(defaultProvider, e.getValue().name(), 1)) : e.getValue().targets();
            for (Target t : list) {
                if (providers != null && !providers.contains(t.provider())) {
                    throw new InvalidRouteException("route '" + e.getKey() + "' targets unknown provider '" + t.provider()
                        + "'; configured: " + providers);
                }
            }
            if (list.stream().allMatch(t -> t.weight() == 0)) {
                throw new InvalidRouteException("route '" + e.getKey() + "' has no target with a positive weight");
            }
            targets.put(e.getKey(), List.copyOf(list));
        }
        for (String key : models.keySet()) {
            chains.put(key, List.copyOf(resolve(key)));
            names.put(key.toLowerCase(Locale.ROOT), key);
        }
        for (Map.Entry<String, Model> e : models.entrySet()) {
            for (String alias : e.getValue().aliases()) {
                String previous = names.putIfAbsent(alias.toLowerCase(Locale.ROOT), e.getKey());
                if (previous != null && !previous.equals(e.getKey())) {
                    throw new InvalidRouteException("alias '" + alias + "' is claimed by routes '" + previous + "' and '"
                        + e.getKey() + "'");
                }
            }
        }
        for (Map.Entry<String, Model> e : models.entrySet()) {
            names.putIfAbsent(e.getValue().name().toLowerCase(Locale.ROOT), e.getKey());
            for (Target t : targets.get(e.getKey())) {
                names.putIfAbsent(t.model().toLowerCase(Locale.ROOT), e.getKey());
            }
        }
    }

    /** @throws InvalidRouteException for an unknown fallback or a cycle */
    public static ModelRoutes of(Map<String, Model> models) {
        return of(models, DEFAULT_PROVIDER, null);
    }

    /**
     * @param defaultProvider provider of routes without targets
     * @param providers       configured provider names (null = not checked)
     */
    public static ModelRoutes of(Map<String, Model> models, String defaultProvider, Set<String> providers) {
        Objects.requireNonNull(models, "models");
        return new ModelRoutes(models, defaultProvider, providers);
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

    /** The route a client's model name means (key, alias or model name, case-insensitive), or null. */
    public String resolveName(String requested) {
        return requested == null ? null : names.get(requested.toLowerCase(Locale.ROOT));
    }

    /** Every name clients may use (route keys, aliases, model names), with the route it means. */
    public Map<String, String> names() {
        Map<String, String> all = new LinkedHashMap<>();
        models.keySet().forEach(k -> all.put(k, k));
        models.forEach((key, m) -> {
            m.aliases().forEach(a -> all.putIfAbsent(a, key));
            if (key.equals(resolveName(m.name()))) {
                all.putIfAbsent(m.name(), key);
            }
            targets.get(key).forEach(t -> {
                if (key.equals(resolveName(t.model()))) {
                    all.putIfAbsent(t.model(), key);
                }
            });
        });
        return all;
    }

    /** The targets of a route, in configuration order. */
    public List<Target> targets(String key) {
        List<Target> list = targets.get(key);
        if (list == null) {
            throw new InvalidRouteException("unknown model '" + key + "'; configured: " + models.keySet());
        }
        return list;
    }

    /** The provider's name of a configured model (its default target's model). */
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
