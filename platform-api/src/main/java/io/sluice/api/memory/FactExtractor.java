package io.sluice.api.memory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sluice.api.session.SessionFact;
import io.sluice.semantics.pairs.QuestionAnalyzer;
import io.sluice.semantics.pairs.QuestionSignals;

/**
 * The key facts of one exchange, by rules (no LLM, microseconds): order and tracking numbers, entities
 * (the semantics module's {@link QuestionAnalyzer}: codes with digits, product names), what the customer
 * complained about (the analyzer's problem concepts, or a complaint intent) and what the answer promised
 * (a commitment — "we will", 我们会, 已为您 — about a remedy: refund, coupon, compensation …). Works on the
 * masked texts, so no phone, ID or card number ever becomes a fact. Pure and thread-safe.
 */
public final class FactExtractor {

    // "订单号 2023…", "order #A1B2C3", "tracking number SF1234567": a labelled code
    private static final Pattern LABELLED = Pattern.compile(
        "(?i)(?:订单号?|单号|运单号?|快递单号|order(?:\\s*(?:no\\.?|number|id))?|tracking(?:\\s*(?:no\\.?|number))?)"
            + "\\s*(?:是|为|:|：|#|＃|=)?\\s*([a-z]{0,4}\\d[a-z0-9-]{5,31})");
    // a bare long digit run: an order or tracking number (phones, IDs and cards arrive masked with *)
    private static final Pattern LONG_NUMBER = Pattern.compile("(?<![\\d*])\\d{8,24}(?![\\d*])");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[。！？!?；;\\n])|(?<=\\.)\\s+");
    // a commitment in the answer …
    private static final Pattern COMMITMENT = Pattern.compile(
        "(?i)(我们(?:会|将|已)|会为您|将为您|已为您|已经为您|为您(?:申请|安排|补发|办理|发放)|给您(?:补发|补偿|发放|退)"
            + "|\\bwe(?:'ll| will| have| are going to|'ve)\\b|\\bi(?:'ll| will| have|'ve)\\b)");
    // … about a remedy (compensation is no concept of the cache's lexicon, which names subjects of questions)
    private static final Pattern REMEDY = Pattern.compile(
        "(?i)(补偿|赔偿|补发|重发|优惠券|代金券|红包|积分|退款|退还|退回|免运费|上门取件|回电|回访"
            + "|compensat\\w*|voucher|coupon|refund\\w*|credit|replacement|resend|call you back|pick(?:ed)? up)");
    // the analyzer's concepts that name a problem the customer has
    private static final Set<String> PROBLEMS = Set.of("complaint", "damaged", "wrong_item", "not_arrived", "fraud", "lost");
    private static final int MAX_CHARS = 160;

    private final QuestionAnalyzer analyzer;

    public FactExtractor(QuestionAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    public FactExtractor() {
        this(new QuestionAnalyzer());
    }

    /**
     * The new facts of an exchange (masked question and answer), without those the session already has.
     *
     * @param intent the message's intent code, or null
     */
    public List<SessionFact> extract(String question, String answer, String intent, List<SessionFact> known, long now) {
        List<Candidate> candidates = candidates(question == null ? "" : question, answer, intent);
        if (candidates.isEmpty()) {
            return List.of();
        }
        Set<String> seen = new LinkedHashSet<>();
        for (SessionFact fact : known) {
            seen.add(fact.kind() + "|" + fact.text());
        }
        List<SessionFact> out = new ArrayList<>();
        for (Candidate candidate : candidates) {
            if (seen.add(candidate.kind() + "|" + candidate.text())) {
                out.add(new SessionFact(candidate.kind(), candidate.text(), now));
            }
        }
        return out;
    }

    /** One fact an exchange states, before it is compared with what the session knows. */
    private record Candidate(String kind, String text) {
    }

    // Customer-service traffic repeats its common exchanges (a cached answer is the same text each time) and the
    // rules are pure, so recent exchanges' facts are kept: the rules ran a dozen regular expressions and the
    // question analyzer on every answer, a twentieth of an exact cache hit's CPU. Bounded; long texts not kept.
    private static final int MEMO_ENTRIES = 4096;
    private static final int MEMO_MAX_CHARS = 4096;
    private static final Map<String, List<Candidate>> MEMO = new ConcurrentHashMap<>();

    private List<Candidate> candidates(String question, String answer, String intent) {
        int length = question.length() + (answer == null ? 0 : answer.length());
        if (length > MEMO_MAX_CHARS) {
            return rules(question, answer, intent);
        }
        String key = question + '\u0000' + (answer == null ? "\u0001" : answer) + '\u0000' + intent;
        List<Candidate> known = MEMO.get(key);
        if (known != null) {
            return known;
        }
        List<Candidate> found = rules(question, answer, intent);
        if (MEMO.size() >= MEMO_ENTRIES) {
            MEMO.clear();
        }
        MEMO.put(key, found);
        return found;
    }

    /** The facts the rules find in one exchange, in order, each once. */
    private List<Candidate> rules(String q, String answer, String intent) {
        Set<Candidate> out = new LinkedHashSet<>();
        Set<String> numbers = new LinkedHashSet<>();
        Matcher labelled = LABELLED.matcher(q);
        while (labelled.find()) {
            numbers.add(labelled.group(1).toUpperCase(Locale.ROOT));
        }
        Matcher bare = LONG_NUMBER.matcher(q);
        while (bare.find()) {
            numbers.add(bare.group());
        }
        for (String number : numbers) {
            out.add(new Candidate("order", "订单 order " + number));
        }
        QuestionSignals signals = analyzer.analyze(q);
        for (String entity : signals.entities()) {
            // a bare number is no entity (order numbers are found above; masked numbers leave digit stubs)
            boolean named = entity.chars().anyMatch(Character::isLetter);
            if (named && numbers.stream().noneMatch(n -> n.equalsIgnoreCase(entity))) {
                out.add(new Candidate("entity", entity));
            }
        }
        boolean problem = "complaint".equals(intent) || signals.concepts().stream().anyMatch(PROBLEMS::contains);
        if (problem && !q.isBlank()) {
            out.add(new Candidate("complaint", clip(q)));
        }
        if (answer != null) {
            for (String sentence : SENTENCE_END.split(answer)) {
                if (COMMITMENT.matcher(sentence).find() && REMEDY.matcher(sentence).find()) {
                    out.add(new Candidate("promise", clip(sentence)));
                }
            }
        }
        return List.copyOf(out);
    }

    private static String clip(String text) {
        String t = text.strip().replaceAll("\\s+", " ");
        return t.length() > MAX_CHARS ? t.substring(0, MAX_CHARS) + "…" : t;
    }
}
