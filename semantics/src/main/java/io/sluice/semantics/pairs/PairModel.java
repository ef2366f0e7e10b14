package io.sluice.semantics.pairs;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A trained pair verifier: logistic-regression weights over {@link PairFeatures} and, per degradation
 * level, the operating point (probability threshold) calibrated to meet that level's target precision
 * on held-out pairs. A candidate is considered when its cosine reaches {@code candidateFloor} and served
 * when P(same answer) reaches the level's threshold. The built-in default ({@link #BUILT_IN}) has no
 * weights: the level's cosine threshold and {@link PairRules} decide.
 *
 * @param features       feature names the weights belong to (a stored model keeps its own order)
 * @param weights        one weight per feature
 * @param bias           intercept
 * @param candidateFloor lowest cosine a candidate needs before the model is asked
 * @param thresholds     level name (L0..L3) → probability threshold; above 1 = never serve at that level
 */
public record PairModel(List<String> features, double[] weights, double bias, double candidateFloor,
        Map<String, Double> thresholds) {

    /** The built-in default: no learned weights. */
    public static final PairModel BUILT_IN = new PairModel(List.of(), new double[0], 0, 1, Map.of());

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    public PairModel {
        features = List.copyOf(features);
        thresholds = Map.copyOf(thresholds);
    }

    public boolean builtIn() {
        return weights.length == 0;
    }

    /** P(same answer) for a feature vector laid out as {@link PairFeatures#NAMES}. */
    public double probability(double[] x) {
        double z = bias;
        for (int i = 0; i < weights.length; i++) {
            z += weights[i] * x[i];
        }
        return 1 / (1 + Math.exp(-z));
    }

    /** The operating point of a level; a level without one never serves. */
    public double threshold(String level) {
        return thresholds.getOrDefault(level, 1.01);
    }

    public byte[] encode() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("features", features);
        out.put("weights", weights);
        out.put("bias", bias);
        out.put("candidateFloor", candidateFloor);
        out.put("thresholds", new java.util.TreeMap<>(thresholds));
        return JSON.writeValueAsBytes(out);
    }

    /** Reads a stored payload; refuses one whose features this build does not compute. */
    public static PairModel decode(byte[] payload) {
        tools.jackson.databind.JsonNode node;
        try {
            node = JSON.readTree(new String(payload, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("pair model payload is not JSON");
        }
        List<String> features = new java.util.ArrayList<>();
        node.path("features").forEach(n -> features.add(n.asString()));
        if (features.isEmpty() || !PairFeatures.NAMES.subList(0, Math.min(features.size(), PairFeatures.NAMES.size()))
                .equals(features) || features.size() > PairFeatures.NAMES.size()) {
            throw new IllegalArgumentException("pair model features do not match this build's features");
        }
        double[] weights = new double[PairFeatures.NAMES.size()];
        var w = node.path("weights");
        if (w.size() != features.size()) {
            throw new IllegalArgumentException("pair model has " + w.size() + " weights for " + features.size() + " features");
        }
        for (int i = 0; i < w.size(); i++) {
            weights[i] = w.get(i).asDouble();
        }
        Map<String, Double> thresholds = new LinkedHashMap<>();
        node.path("thresholds").properties().forEach(e -> thresholds.put(e.getKey(), e.getValue().asDouble()));
        double floor = node.path("candidateFloor").asDouble(0.7);
        if (!(floor > 0 && floor <= 1)) {
            throw new IllegalArgumentException("pair model candidate floor must be in (0, 1]");
        }
        return new PairModel(PairFeatures.NAMES, weights, node.path("bias").asDouble(), floor, thresholds);
    }
}
