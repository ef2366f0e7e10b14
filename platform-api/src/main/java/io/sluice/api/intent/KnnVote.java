package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nearest-neighbour vote, pure: the {@code k} most similar examples vote for their label with
 * their similarity as weight; the winner's share of the weight is the confidence. When even the
 * nearest example is less similar than {@code minSimilarity} the message is unlike anything we have
 * labelled, and the vote abstains. Ties go to the more urgent priority class (as in the rules).
 */
public final class KnnVote {

    /** One labelled example and how similar it is to the message (cosine). */
    public record Neighbour(ExampleLabel label, double similarity, String text) {
    }

    /** The outcome: a label, its share of the vote, and the neighbours that voted (most similar first). */
    public record Decision(ExampleLabel label, double confidence, List<Neighbour> voters) {
    }

    private final int k;
    private final double minSimilarity;

    public KnnVote(int k, double minSimilarity) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1");
        }
        if (minSimilarity < -1 || minSimilarity > 1) {
            throw new IllegalArgumentException("minSimilarity must be in [-1, 1]");
        }
        this.k = k;
        this.minSimilarity = minSimilarity;
    }

    public int k() {
        return k;
    }

    /** Decides from any number of neighbours (only the {@code k} most similar vote). */
    public Optional<Decision> decide(List<Neighbour> neighbours) {
        List<Neighbour> voters = new ArrayList<>(neighbours);
        voters.sort(Comparator.comparingDouble(Neighbour::similarity).reversed());
        if (voters.size() > k) {
            voters = voters.subList(0, k);
        }
        if (voters.isEmpty() || voters.get(0).similarity() < minSimilarity) {
            return Optional.empty();
        }
        Map<ExampleLabel, Double> weights = new EnumMap<>(ExampleLabel.class);
        double total = 0;
        for (Neighbour voter : voters) {
            double weight = Math.max(0, voter.similarity());
            weights.merge(voter.label(), weight, Double::sum);
            total += weight;
        }
        ExampleLabel best = null;
        double bestWeight = -1;
        for (Map.Entry<ExampleLabel, Double> entry : weights.entrySet()) {
            ExampleLabel label = entry.getKey();
            double weight = entry.getValue();
            if (weight > bestWeight || weight == bestWeight
                    && label.standsFor().priority().compareTo(best.standsFor().priority()) < 0) {
                best = label;
                bestWeight = weight;
            }
        }
        double confidence = total == 0 ? 0 : bestWeight / total;
        return Optional.of(new Decision(best, confidence, List.copyOf(voters)));
    }
}
