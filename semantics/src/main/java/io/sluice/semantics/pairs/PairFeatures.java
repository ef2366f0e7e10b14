package io.sluice.semantics.pairs;

import java.util.List;
import java.util.Set;

/**
 * The features of one question pair the pair model weighs. Agreement features that may be unknown
 * (intent, FAQ entry) are +1 agree, -1 disagree, 0 unknown, so an unknown contributes nothing.
 * The order of {@link #NAMES} is part of a stored model: append, never reorder.
 */
public final class PairFeatures {

    public static final List<String> NAMES = List.of(
        "cosine",             // similarity of the two normalised embeddings
        "cosine_excess",      // max(0, cosine - 0.85) * 4: lets the model trust very close pairs more
        "lexical_overlap",    // Jaccard of CJK bigrams and Latin content words of the normalised texts
        "numbers_differ",     // numbers (in order, with units, Chinese numerals too) differ
        "numbers_shared",     // both name numbers and they agree
        "negation_differs",   // one negated, the other not (不能 / 无法 / can't ...)
        "direction_differs",  // both name a direction (A到B, from A to B) and not the same one
        "concepts_jaccard",   // agreement of the customer-service concepts named
        "concepts_missing",   // how many concepts one names and the other does not (capped at 3, / 3)
        "entities_differ",    // literal entities (codes, Latin words in Chinese, names) differ
        "intent_agreement",   // +1 same intent, -1 different, 0 unknown
        "faq_agreement",      // +1 same FAQ entry, -1 different, 0 unknown
        "length_ratio",       // shorter / longer normalised length
        "rules_accept",       // the built-in rules accept the pair
        "substitution");      // one template, one content word swapped ("房贷/车贷怎么提前还", "turn on/off roaming")

    /** Indexes the verifier reads directly. */
    public static final int RULES_ACCEPT = NAMES.indexOf("rules_accept");
    static final int NUMBERS_DIFFER = NAMES.indexOf("numbers_differ");
    static final int NEGATION_DIFFERS = NAMES.indexOf("negation_differs");
    static final int DIRECTION_DIFFERS = NAMES.indexOf("direction_differs");

    private PairFeatures() {
    }

    /** Optional labels of a question beside its text; null when unknown. */
    public record Labels(String intent, String faqKey) {
        public static final Labels NONE = new Labels(null, null);
    }

    public static double[] of(QuestionSignals a, QuestionSignals b, double cosine, Labels la, Labels lb) {
        double[] f = new double[NAMES.size()];
        f[0] = cosine;
        f[1] = Math.max(0, cosine - 0.85) * 4;
        f[2] = jaccard(a.grams(), b.grams());
        boolean numbersDiffer = !a.numbers().equals(b.numbers());
        f[3] = numbersDiffer ? 1 : 0;
        f[4] = !numbersDiffer && !a.numbers().isEmpty() ? 1 : 0;
        f[5] = a.negated() != b.negated() ? 1 : 0;
        f[6] = PairRules.directionsDisagree(a.directions(), b.directions()) ? 1 : 0;
        f[7] = a.concepts().isEmpty() && b.concepts().isEmpty() ? 1 : jaccard(a.concepts(), b.concepts());
        f[8] = Math.min(3, symmetricDifference(a.concepts(), b.concepts())) / 3.0;
        f[9] = a.entities().equals(b.entities()) ? 0 : 1;
        f[10] = agreement(la == null ? null : la.intent(), lb == null ? null : lb.intent());
        f[11] = agreement(la == null ? null : la.faqKey(), lb == null ? null : lb.faqKey());
        int la1 = a.normalized().length();
        int lb1 = b.normalized().length();
        f[12] = Math.max(la1, lb1) == 0 ? 1 : (double) Math.min(la1, lb1) / Math.max(la1, lb1);
        f[RULES_ACCEPT] = PairRules.verify(a, b) == PairRules.Verdict.ACCEPTED ? 1 : 0;
        f[14] = substitution(a.normalized(), b.normalized()) ? 1 : 0;
        return f;
    }

    // characters and words that carry phrasing, not content: swapping them keeps the meaning
    // (negation and ability words too: their disagreement is the negation feature's business)
    private static final String FUNCTION_CHARS = "的了吗呢吧啊是在我你要想能可会请帮给把被让就都也又还再么怎如何样什哪儿里些个一"
        + "不没无未法够以";
    private static final java.util.Set<String> FUNCTION_WORDS = java.util.Set.of("a", "an", "the", "i", "my", "me",
        "is", "are", "do", "does", "can", "could", "would", "please", "you", "your", "to", "of", "for", "it", "will",
        "how", "what", "when", "where", "why", "which", "there", "be", "get", "have", "has", "that", "this");

    /**
     * Whether the two questions are one template with one short content span swapped: the common prefix
     * and suffix cover at least half of the longer one, the differing spans are at most 4 units, share
     * none, and each holds a content unit. Paraphrases rephrase; minimal pairs swap the thing asked about.
     */
    public static boolean substitution(String a, String b) {
        List<String> x = units(a);
        List<String> y = units(b);
        int prefix = 0;
        while (prefix < x.size() && prefix < y.size() && x.get(prefix).equals(y.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < x.size() - prefix && suffix < y.size() - prefix
                && x.get(x.size() - 1 - suffix).equals(y.get(y.size() - 1 - suffix))) {
            suffix++;
        }
        List<String> mx = x.subList(prefix, x.size() - suffix);
        List<String> my = y.subList(prefix, y.size() - suffix);
        if (mx.isEmpty() || my.isEmpty() || mx.size() > 4 || my.size() > 4
                || (prefix + suffix) * 2 < Math.max(x.size(), y.size())) {
            return false;
        }
        for (String u : mx) {
            if (my.contains(u)) {
                return false;
            }
        }
        // synonyms swapped ("多久" / "几天") name one concept: a paraphrase, not a substitution
        java.util.Set<String> cx = QuestionAnalyzer.concepts(text(mx));
        if (!cx.isEmpty() && cx.equals(QuestionAnalyzer.concepts(text(my)))) {
            return false;
        }
        return mx.stream().anyMatch(PairFeatures::content) && my.stream().anyMatch(PairFeatures::content);
    }

    /** Units back to text: Han characters joined, Latin words spaced. */
    private static String text(List<String> units) {
        StringBuilder out = new StringBuilder(" ");
        for (String u : units) {
            out.append(u);
            if (u.charAt(0) < 0x80) {
                out.append(' ');
            }
        }
        return out.append(' ').toString();
    }

    private static boolean content(String unit) {
        return unit.length() == 1 && unit.charAt(0) > 0x2E80 ? FUNCTION_CHARS.indexOf(unit.charAt(0)) < 0
            : !FUNCTION_WORDS.contains(unit);
    }

    /** Han characters one by one and Latin words, punctuation dropped. */
    private static List<String> units(String text) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char ch = i < text.length() ? text.charAt(i) : ' ';
            if (ch < 0x80 && Character.isLetterOrDigit(ch) || ch == '\'') {
                word.append(ch);
                continue;
            }
            if (word.length() > 0) {
                out.add(word.toString());
                word.setLength(0);
            }
            if (Character.UnicodeScript.of(ch) == Character.UnicodeScript.HAN) {
                out.add(String.valueOf(ch));
            }
        }
        return out;
    }

    static double agreement(String a, String b) {
        if (a == null || b == null || a.isBlank() || b.isBlank()) {
            return 0;
        }
        return a.equals(b) ? 1 : -1;
    }

    static <T> double jaccard(Set<T> a, Set<T> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        int inter = 0;
        for (T t : a) {
            if (b.contains(t)) {
                inter++;
            }
        }
        return (double) inter / (a.size() + b.size() - inter);
    }

    private static <T> int symmetricDifference(Set<T> a, Set<T> b) {
        int n = 0;
        for (T t : a) {
            n += b.contains(t) ? 0 : 1;
        }
        for (T t : b) {
            n += a.contains(t) ? 0 : 1;
        }
        return n;
    }
}
