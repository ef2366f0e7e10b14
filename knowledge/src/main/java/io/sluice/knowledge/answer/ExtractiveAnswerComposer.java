package io.sluice.knowledge.answer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.faq.FaqAnswerMarker;

/**
 * Composes the F1 answer: the best FAQ answer as written, or the sentences of the best passage
 * that overlap the question most (in their original order), then the source, then a plain notice
 * that the answer is automatic.
 */
public class ExtractiveAnswerComposer {

    public static final String NOTICE = "（以上为自动回复，未经人工确认；如未解决您的问题，请回复“转人工”。"
        + "This is an automatic answer.）";
    public static final String NO_MATCH = "抱歉，暂时没有找到与您问题相符的答案，请换个说法或联系人工客服。"
        + "（自动回复 / automatic answer: no matching answer found.）";

    private final int maxSentences;

    public ExtractiveAnswerComposer(int maxSentences) {
        this.maxSentences = Math.max(1, maxSentences);
    }

    public ExtractiveAnswer compose(RetrievalResult result) {
        if (!result.found()) {
            return new ExtractiveAnswer(NO_MATCH, null);
        }
        Passage best = result.passages().get(0);
        String body = best.answer() != null ? best.answer() : FaqAnswerMarker.answerOf(best.text());
        if (body == null) {
            body = extract(result.query(), best.text());
        }
        return new ExtractiveAnswer(body + "\n" + sourceLine(best) + "\n" + NOTICE, best);
    }

    static String sourceLine(Passage p) {
        StringBuilder sb = new StringBuilder("来源：");
        if (p.isFaq()) {
            sb.append("常见问题「").append(p.source().title()).append("」");
        } else {
            sb.append("《").append(p.source().title()).append("》");
            if (p.source().heading() != null && !p.source().heading().isBlank()) {
                sb.append(" › ").append(p.source().heading());
            }
        }
        if (p.source().url() != null) {
            sb.append(" ").append(p.source().url());
        }
        return sb.toString();
    }

    /** The {@code maxSentences} sentences sharing most bigrams with the query, kept in text order. */
    String extract(String query, String text) {
        List<String> sentences = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\n') {
                sb.append(c);
            }
            if (c == '\n' || c == '。' || c == '！' || c == '？' || c == '；'
                    || ((c == '.' || c == '!' || c == '?') && (i + 1 == text.length()
                        || Character.isWhitespace(text.charAt(i + 1))))) {
                add(sentences, sb);
            }
        }
        add(sentences, sb);
        if (sentences.size() <= maxSentences) {
            return String.join("", joinable(sentences));
        }
        Set<String> q = grams(query);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < sentences.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt((Integer i) -> -overlap(q, grams(sentences.get(i)))).thenComparing(i -> i));
        List<Integer> chosen = new ArrayList<>(order.subList(0, maxSentences));
        chosen.sort(Comparator.naturalOrder());
        List<String> picked = new ArrayList<>();
        for (int i : chosen) {
            picked.add(sentences.get(i));
        }
        return String.join("", joinable(picked));
    }

    private static List<String> joinable(List<String> sentences) {
        List<String> out = new ArrayList<>();
        for (String s : sentences) {
            boolean latin = !s.isEmpty() && s.charAt(s.length() - 1) < 0x3000;
            out.add(latin ? s + " " : s);
        }
        if (!out.isEmpty()) {
            int last = out.size() - 1;
            out.set(last, out.get(last).strip());
        }
        return out;
    }

    private static void add(List<String> sentences, StringBuilder sb) {
        String s = sb.toString().strip();
        sb.setLength(0);
        if (!s.isEmpty() && !s.matches("[-|#*>\\s]+")) {
            sentences.add(s.replaceFirst("^[-*]\\s+|^\\d+\\.\\s+", ""));
        }
    }

    private static int overlap(Set<String> a, Set<String> b) {
        int n = 0;
        for (String x : a) {
            if (b.contains(x)) {
                n++;
            }
        }
        return n;
    }

    private static Set<String> grams(String text) {
        Set<String> out = new HashSet<>();
        String s = text.toLowerCase(Locale.ROOT);
        for (int i = 0; i + 1 < s.length(); i++) {
            char a = s.charAt(i);
            char b = s.charAt(i + 1);
            if (Character.isLetterOrDigit(a) && Character.isLetterOrDigit(b)) {
                out.add(s.substring(i, i + 2));
            }
        }
        return out;
    }
}
