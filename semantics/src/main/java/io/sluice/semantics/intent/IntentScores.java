package io.sluice.semantics.intent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Figures of intent decisions against labels: priority accuracy and the 3×3 priority confusion matrix,
 * the S→B rate (urgent requests sent to the slowest lane: the costliest mistake), per-class precision
 * and recall (priority classes and intents), intent accuracy where an intent was expected.
 */
public final class IntentScores {

    public static final List<String> CLASSES = List.of("S", "A", "B");

    /** One judged item; {@code expectedIntent} may be null (only a priority was labelled). */
    public record Judged(String expectedIntent, String expectedPriority, String intent, String priority) {
    }

    /** Precision and recall of one class, with its support (how many were expected). */
    public record PrecisionRecall(double precision, double recall, int support) {
    }

    /**
     * @param confusion rows = expected S/A/B, columns = decided S/A/B
     */
    public record Summary(int items, double priorityAccuracy, double intentAccuracy, double sToB,
            int[][] confusion, Map<String, PrecisionRecall> perPriority, Map<String, PrecisionRecall> perIntent,
            Map<String, Integer> decidedIntents) {

        /** Headline figures by name (what an evaluation report and the console show). */
        public Map<String, Double> metrics() {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("priority-accuracy", priorityAccuracy);
            if (!Double.isNaN(intentAccuracy)) {
                m.put("intent-accuracy", intentAccuracy);
            }
            m.put("s-to-b-rate", sToB);
            for (String c : CLASSES) {
                PrecisionRecall pr = perPriority.get(c);
                m.put(c + "-precision", pr.precision());
                m.put(c + "-recall", pr.recall());
            }
            return m;
        }

        /**
         * Whether these figures are at least as good as {@code other}'s on the same items: priority
         * accuracy not lower and S→B not higher (each within {@code tolerance}).
         */
        public boolean notWorseThan(Summary other, double tolerance) {
            return priorityAccuracy >= other.priorityAccuracy - tolerance && sToB <= other.sToB + tolerance;
        }
    }

    private IntentScores() {
    }

    public static Summary of(List<Judged> judged) {
        int[][] confusion = new int[3][3];
        int correct = 0;
        int intentItems = 0;
        int intentCorrect = 0;
        Map<String, int[]> intentCounts = new TreeMap<>();   // tp, fp, fn
        Map<String, Integer> decided = new TreeMap<>();
        for (Judged j : judged) {
            int e = CLASSES.indexOf(j.expectedPriority());
            int d = CLASSES.indexOf(j.priority());
            if (e < 0 || d < 0) {
                throw new IllegalArgumentException("priority classes are S, A or B");
            }
            confusion[e][d]++;
            correct += e == d ? 1 : 0;
            decided.merge(j.intent(), 1, Integer::sum);
            if (j.expectedIntent() != null) {
                intentItems++;
                boolean ok = j.expectedIntent().equals(j.intent());
                intentCorrect += ok ? 1 : 0;
                intentCounts.computeIfAbsent(j.expectedIntent(), k -> new int[3])[ok ? 0 : 2]++;
                if (!ok) {
                    intentCounts.computeIfAbsent(j.intent(), k -> new int[3])[1]++;
                }
            }
        }
        Map<String, PrecisionRecall> perPriority = new LinkedHashMap<>();
        for (int c = 0; c < 3; c++) {
            int tp = confusion[c][c];
            int predicted = confusion[0][c] + confusion[1][c] + confusion[2][c];
            int expected = confusion[c][0] + confusion[c][1] + confusion[c][2];
            perPriority.put(CLASSES.get(c), new PrecisionRecall(ratio(tp, predicted), ratio(tp, expected), expected));
        }
        Map<String, PrecisionRecall> perIntent = new LinkedHashMap<>();
        intentCounts.forEach((key, n) -> perIntent.put(key,
            new PrecisionRecall(ratio(n[0], n[0] + n[1]), ratio(n[0], n[0] + n[2]), n[0] + n[2])));
        int s = confusion[0][0] + confusion[0][1] + confusion[0][2];
        return new Summary(judged.size(), ratio(correct, judged.size()),
            intentItems == 0 ? Double.NaN : ratio(intentCorrect, intentItems), ratio(confusion[0][2], s), confusion,
            perPriority, perIntent, decided);
    }

    /** The summary as plain maps and lists (for JSON details). */
    public static Map<String, Object> details(Summary summary) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", summary.items());
        out.put("classes", CLASSES);
        List<List<Integer>> rows = new ArrayList<>();
        for (int[] row : summary.confusion()) {
            rows.add(List.of(row[0], row[1], row[2]));
        }
        out.put("confusion", rows);
        out.put("perPriority", summary.perPriority());
        out.put("perIntent", summary.perIntent());
        return out;
    }

    private static double ratio(int a, int b) {
        return b == 0 ? 0 : (double) a / b;
    }
}
