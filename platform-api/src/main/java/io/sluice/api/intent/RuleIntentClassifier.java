package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sluice.knowledge.text.TextNormalizer;

/**
 * Keyword and pattern rules, Chinese and English, always present. Each intent scores the weights of
 * its rules that match; the highest score wins, ties go to the more urgent priority class, and no
 * match at all is {@link Intent#GENERAL}. Pure, thread-safe; plain keywords are
 * matched with indexOf, only real patterns with a regex (tens of microseconds per message).
 */
public final class RuleIntentClassifier {

    /** One keyword or pattern; {@link #find} returns the matched text or null. */
    private record Rule(Intent intent, Matching matching, double weight) {
        String find(String text) {
            return matching.find(text);
        }
    }

    private interface Matching {
        String find(String text);
    }

    /** Most rules are plain keywords: an indexOf is several times cheaper than a regex scan. */
    private record Keyword(String word, boolean wholeWord) implements Matching {
        @Override
        public String find(String text) {
            for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
                if (!wholeWord || boundary(text, at - 1) && boundary(text, at + word.length())) {
                    return word;
                }
            }
            return null;
        }

        private static boolean boundary(String text, int index) {
            return index < 0 || index >= text.length() || !Character.isLetterOrDigit(text.charAt(index)) && text.charAt(index) != '_';
        }
    }

    private record Regex(Pattern pattern) implements Matching {
        @Override
        public String find(String text) {
            Matcher matcher = pattern.matcher(text);
            return matcher.find() ? matcher.group() : null;
        }
    }

    private static final Pattern REGEX_SYNTAX = Pattern.compile("[\\\\()\\[\\]{}|?*+.^$]");

    private static final List<Rule> RULES = new ArrayList<>();

    static {
        rule(Intent.COMPLAINT, 2.5, "投诉", "举报", "差评", "维权", "消协", "12315", "曝光你们", "欺骗", "骗子", "忽悠",
            "态度(太)?差", "(太|真)(差|烂|垃圾)", "不满意", "什么破", "complain", "complaint", "unacceptable",
            "terrible (service|experience)", "worst", "scam", "sue you", "lawyer", "report you");
        rule(Intent.URGENT, 2.0, "紧急", "急用", "十万火急", "马上处理", "立刻", "盗刷", "被盗", "诈骗", "被骗", "冒用",
            "受伤", "起火", "爆炸", "漏电", "urgent", "emergency", "asap", "immediately", "stolen", "fraud", "hacked",
            "injur(ed|y)", "on fire");
        rule(Intent.URGENT, 0.8, "急", "尽快", "赶紧", "right now");
        rule(Intent.PAYMENT, 1.5, "扣款", "扣费", "扣了(两|2)次", "重复(扣|支付|付款)", "多扣", "付不了", "支付失败",
            "付款失败", "没法付", "无法支付", "(钱|款)没到", "double charged", "charged twice", "payment failed",
            "card (was )?declined", "can'?t pay", "overcharged");
        rule(Intent.PAYMENT_INFO, 1.0, "支付", "付款", "银行卡", "信用卡", "分期", "payment", "pay", "billing", "charged");
        rule(Intent.REFUND, 1.5, "退款", "退钱", "退费", "refund", "money back", "reimburse");
        rule(Intent.ORDER_PROBLEM, 1.5, "没收到", "未收到", "收不到", "少发", "漏发", "错发", "发错", "破损", "坏了",
            "质量问题", "取消订单", "订单(异常|出错|有问题|丢了)", "缺件", "not received", "never (arrived|received)",
            "wrong item", "damaged", "broken", "missing item", "cancel (my )?order", "order (problem|issue)");
        rule(Intent.ORDER_INFO, 0.6, "订单", "order");
        rule(Intent.LOGISTICS, 1.0, "物流", "快递", "发货", "配送", "到哪", "运费", "派送", "shipping", "delivery",
            "track(ing)?", "courier", "shipment");
        rule(Intent.RETURNS, 1.2, "退货", "换货", "七天无理由", "return", "exchange");
        rule(Intent.ACCOUNT, 1.0, "密码", "登录", "登陆", "账号", "帐号", "注册", "验证码", "password", "log ?in",
            "sign ?in", "account", "verification code");
        rule(Intent.PROMOTION, 1.0, "优惠券", "优惠", "折扣", "满减", "活动", "红包", "coupon", "discount", "promo(tion)?",
            "voucher");
    }

    private static void rule(Intent intent, double weight, String... patterns) {
        for (String pattern : patterns) {
            boolean ascii = pattern.chars().allMatch(c -> c < 128);
            // English words need word boundaries ("pay" is not "repay"); Chinese has no spaces to rely on
            boolean wholeWord = ascii && Character.isLetter(pattern.charAt(0));
            Matching matching;
            if (!REGEX_SYNTAX.matcher(pattern).find()) {
                matching = new Keyword(pattern, wholeWord);
            } else {
                // the text is lower-cased before matching, so no case-insensitive flag is needed
                matching = new Regex(Pattern.compile(wholeWord ? "\\b(?:" + pattern + ")\\b" : pattern));
            }
            RULES.add(new Rule(intent, matching, weight));
        }
    }

    /** Number of rule features ({@link #features}): one per sample intent. */
    public static final int FEATURES = Intent.values().length;

    /**
     * The rules' score of every sample intent (by ordinal), scaled to about 0..1: what the trained
     * model reads beside the embedding, so an operator's model can learn how far to trust each rule.
     */
    public float[] features(String message) {
        String text = matchable(message);
        float[] out = new float[FEATURES];
        for (Rule rule : RULES) {
            if (rule.find(text) != null) {
                out[rule.intent().ordinal()] += (float) (rule.weight() / 2.5);
            }
        }
        return out;
    }

    /**
     * The text the rules match: the one normalisation (case fold, width, Traditional → Simplified), so
     * 盜刷 matches the rule 盗刷 and "STOLEN" matches "stolen"; then lower case (the rules are written so).
     */
    static String matchable(String message) {
        return TextNormalizer.normalize(message).toLowerCase(Locale.ROOT);
    }

    public IntentResult classify(String message) {
        String text = matchable(message);
        Map<Intent, Double> scores = new EnumMap<>(Intent.class);
        Map<Intent, List<String>> evidence = new EnumMap<>(Intent.class);
        for (Rule rule : RULES) {
            String found = rule.find(text);
            if (found != null) {
                scores.merge(rule.intent(), rule.weight(), Double::sum);
                evidence.computeIfAbsent(rule.intent(), key -> new ArrayList<>()).add(found);
            }
        }
        Intent best = Intent.GENERAL;
        double bestScore = 0;
        for (Map.Entry<Intent, Double> entry : scores.entrySet()) {
            Intent intent = entry.getKey();
            double score = entry.getValue();
            if (score > bestScore || score == bestScore && intent.priority().compareTo(best.priority()) < 0) {
                best = intent;
                bestScore = score;
            }
        }
        if (best == Intent.GENERAL) {
            return new IntentResult(Intent.GENERAL, 0.3, "rules", List.of());
        }
        return new IntentResult(best, Math.min(1.0, bestScore / 2.0), "rules", evidence.get(best));
    }
}
