package io.sluice.semantics.pairs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses operating points on held-out pairs: for each level the lowest probability threshold whose
 * served pairs reach the level's target precision with a margin of one standard error (at least
 * {@code minServed} of them), so recall is as high as the target safely allows. Also draws the precision/recall curve the console shows.
 */
public final class Calibration {

    /** One held-out pair as the online path scores it: P(same), or -1 when its cosine is below the floor. */
    public record Scored(double score, boolean same) {
    }

    /** A point of the curve: serving every pair scored ≥ threshold gives this precision and recall. */
    public record Point(double threshold, double precision, double recall, int served) {
    }

    /** The chosen point of a level. {@code threshold} above 1 = no threshold met the target: never serve. */
    public record OperatingPoint(String level, double target, double threshold, double precision, double recall,
            int served) {
        public boolean serves() {
            return threshold <= 1;
        }
    }

    private Calibration() {
    }

    /** The full curve, highest threshold first (one point per distinct score of a positive). */
    public static List<Point> curve(List<Scored> scored) {
        List<Scored> sorted = new ArrayList<>(scored.stream().filter(s -> s.score() >= 0).toList());
        sorted.sort(Comparator.comparingDouble(Scored::score).reversed());
        long positives = scored.stream().filter(Scored::same).count();
        List<Point> out = new ArrayList<>();
        int served = 0;
        int correct = 0;
        for (int i = 0; i < sorted.size(); i++) {
            Scored s = sorted.get(i);
            served++;
            correct += s.same() ? 1 : 0;
            boolean lastOfScore = i + 1 == sorted.size() || sorted.get(i + 1).score() < s.score();
            if (lastOfScore) {
                out.add(new Point(s.score(), (double) correct / served, positives == 0 ? 0 : (double) correct / positives,
                    served));
            }
        }
        return out;
    }

    /**
     * The lowest threshold whose precision, less one standard error ({@code sqrt(p(1-p)/n)}), still meets
     * the target: a point that only just reaches the target on a few hundred held-out pairs would fall
     * short on the next few hundred about half the time.
     */
    public static OperatingPoint choose(String level, double target, List<Point> curve, int minServed) {
        Point best = null;
        for (Point p : curve) {
            double margin = Math.sqrt(p.precision() * (1 - p.precision()) / p.served());
            if (p.served() >= minServed && p.precision() - margin >= target) {
                best = p; // later points have lower thresholds and higher recall
            }
        }
        if (best == null) {
            return new OperatingPoint(level, target, 1.01, 1, 0, 0);
        }
        return new OperatingPoint(level, target, best.threshold(), best.precision(), best.recall(), best.served());
    }

    /** Measures a fixed threshold on scored pairs. */
    public static Point at(double threshold, List<Scored> scored) {
        long positives = scored.stream().filter(Scored::same).count();
        int served = 0;
        int correct = 0;
        for (Scored s : scored) {
            if (s.score() >= 0 && s.score() >= threshold) {
                served++;
                correct += s.same() ? 1 : 0;
            }
        }
        return new Point(threshold, served == 0 ? 1 : (double) correct / served,
            positives == 0 ? 0 : (double) correct / positives, served);
    }

    /** At most {@code max} points, evenly over the curve, keeping its ends (for a chart). */
    public static List<Point> thin(List<Point> curve, int max) {
        if (curve.size() <= max) {
            return curve;
        }
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            out.add(curve.get((int) Math.round((double) i * (curve.size() - 1) / (max - 1))));
        }
        return out;
    }

    static Map<String, Object> describe(OperatingPoint p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", p.level());
        m.put("target", p.target());
        m.put("threshold", round(p.threshold()));
        m.put("precision", round(p.precision()));
        m.put("recall", round(p.recall()));
        m.put("served", p.served());
        return m;
    }

    static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
