package io.sluice.api.chat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.semantics.pairs.QuestionAnalyzer;
import io.sluice.semantics.pairs.QuestionSignals;

/**
 * Does a polished (F2) answer contradict the FAQ answer it was made from? Reads both texts with the
 * semantics module's {@link QuestionAnalyzer} — the same number (with units, Chinese and English numerals)
 * and negation readings the pair verifier uses — instead of a word list of its own:
 * <ul>
 *   <li>{@code numbers}: the polish states a number the reference does not (a value it never names, or
 *       one of its values with another unit: 3 days vs 3 weeks). Dropping a number is not a contradiction.</li>
 *   <li>{@code negation}: one text is negated and the other not (可以退 / 不可以退, can / cannot).</li>
 *   <li>{@code entry}: matched against the FAQ (the snapshot's own matching), the two texts are about
 *       different entries, both clearly (optional: needs the FAQ matcher).</li>
 * </ul>
 */
public final class ShadowCheck {

    /** A FAQ entry's key a text is about, or null when no entry is a clear match. */
    @FunctionalInterface
    public interface EntryMatcher {
        String entryOf(String text);

        EntryMatcher NONE = text -> null;
    }

    private static final Pattern NUMBER = Pattern.compile("^([0-9.]+)(.*)$");
    // digits glued to Latin letters name things (iPhone15, A12, tok3), they state no amount
    private static final Pattern GLUED_DIGITS = Pattern.compile("(?<=[A-Za-z])\\d+");

    private final QuestionAnalyzer analyzer;
    private final EntryMatcher entries;

    public ShadowCheck(QuestionAnalyzer analyzer, EntryMatcher entries) {
        this.analyzer = analyzer;
        this.entries = entries == null ? EntryMatcher.NONE : entries;
    }

    /** The contradiction found ({@code numbers}, {@code negation}, {@code entry}), or null when they agree. */
    public String contradiction(String reference, String polished) {
        QuestionSignals ref = analyzer.analyze(GLUED_DIGITS.matcher(reference).replaceAll(""));
        QuestionSignals pol = analyzer.analyze(GLUED_DIGITS.matcher(polished).replaceAll(""));
        if (newNumber(ref.numbers(), pol.numbers())) {
            return "numbers";
        }
        if (negationFlipped(reference, polished)) {
            return "negation";
        }
        String referenceEntry = entries.entryOf(reference);
        String polishedEntry = referenceEntry == null ? null : entries.entryOf(polished);
        if (referenceEntry != null && polishedEntry != null && !referenceEntry.equals(polishedEntry)) {
            return "entry";
        }
        return null;
    }

    /**
     * Whether a statement of the reference comes back with its negation flipped: clause by clause, a polish
     * clause that says the same thing (most of its words / character bigrams shared) but is negated where the
     * reference's is not, or the other way round (可以退 / 不可以退, can / cannot). A clause only one text has
     * (an apology with 不便 the polish left out, a courtesy line it added) flips nothing; conditional clauses
     * ("如未到账请联系客服", "if it has not arrived, contact us") are left out (a contradiction inside a
     * condition is missed in exchange).
     */
    boolean negationFlipped(String reference, String polished) {
        List<QuestionSignals> ref = clauses(reference);
        for (QuestionSignals p : clauses(polished)) {
            for (QuestionSignals r : ref) {
                if (r.negated() != p.negated() && overlap(r.grams(), p.grams()) >= SAME_STATEMENT) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Shared lexical units (Jaccard) from which two clauses are taken to make the same statement. */
    static final double SAME_STATEMENT = 0.5;

    private List<QuestionSignals> clauses(String text) {
        List<QuestionSignals> out = new java.util.ArrayList<>();
        for (String clause : CLAUSES.split(GLUED_DIGITS.matcher(text).replaceAll(""))) {
            String c = clause.strip();
            if (!c.isEmpty() && !CONDITION.matcher(c).lookingAt()) {
                out.add(analyzer.analyze(c));
            }
        }
        return out;
    }

    private static double overlap(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        int shared = 0;
        for (String g : a) {
            if (b.contains(g)) {
                shared++;
            }
        }
        return (double) shared / union.size();
    }

    private static final Pattern CLAUSES = Pattern.compile("[，,。.;；!?！？\\n]+");
    private static final Pattern CONDITION = Pattern.compile(
        "(如果|如若|假如|若是|若|万一|如未|如没|如有|如需|如|(?i:if|unless|in case|should)\\b)");

        static boolean newNumber(List<String> reference, List<String> polished) {
        Set<String> exact = new HashSet<>(reference);
        for (String n : polished) {
            if (exact.contains(n)) {
                continue;
            }
            String[] vu = split(n);
            boolean valueKnown = false;
            boolean unitAgrees = vu[1].isEmpty();
            for (String r : reference) {
                String[] rv = split(r);
                if (rv[0].equals(vu[0])) {
                    valueKnown = true;
                    unitAgrees |= rv[1].isEmpty() || rv[1].equals(vu[1]);
                }
            }
            if (!valueKnown || !unitAgrees) {
                return true;
            }
        }
        return false;
    }

    private static String[] split(String number) {
        Matcher m = NUMBER.matcher(number);
        return m.matches() ? new String[] {m.group(1), m.group(2)} : new String[] {number, ""};
    }

    /**
     * Entries by the FAQ snapshot's matching: the best entry when its score is at least {@code minScore} and
     * ahead of the runner-up by {@code margin} (else no clear entry).
     */
    public static EntryMatcher snapshotMatcher(Function<String, List<FaqMatch>> match, double minScore, double margin) {
        return text -> {
            List<FaqMatch> top = match.apply(text);
            if (top.isEmpty() || top.get(0).score() < minScore) {
                return null;
            }
            if (top.size() > 1 && top.get(0).score() - top.get(1).score() < margin) {
                return null;
            }
            return top.get(0).entry().key();
        };
    }

}
