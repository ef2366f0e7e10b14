package io.sluice.api.cache;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check a semantic (L2) hit must pass beyond cosine similarity: embeddings put "退货的运费谁来出"
 * and "退货的退款多久到账" close together, but they need different answers. Two questions agree when
 * <ul>
 *   <li>their <b>numbers</b> are the same (Arabic and simple Chinese numerals, as a sorted list);</li>
 *   <li>their <b>negation</b> agrees (both negated or neither);</li>
 *   <li>their <b>key terms</b> agree: the customer-service concepts each mentions (subject such as
 *       运费/shipping fee, and question kind such as 多久/how long), synonyms mapped to one concept.</li>
 * </ul>
 * Pure and thread-safe; microseconds per pair.
 */
public final class HitVerifier {

    /** Why a candidate was refused (metric tag). */
    public enum Verdict { ACCEPTED, NUMBERS, NEGATION, TERMS }

    // concept → synonyms (Chinese substrings; English words or phrases, matched on word boundaries)
    private static final Map<String, List<String>> CONCEPTS = new LinkedHashMap<>();

    static {
        // subjects
        c("shipping_fee", "运费", "邮费", "快递费", "shipping fee", "shipping cost", "shipping costs", "postage",
            "delivery fee", "return shipping", "shipping charge");
        c("refund", "退款", "退钱", "钱退", "返款", "refund", "refunds", "refunded", "money back");
        c("return", "退货", "退回", "寄回", "return", "returns", "returned", "send back", "send it back");
        c("exchange", "换货", "调换", "换一个", "换个", "exchange", "swap", "replacement");
        c("cancel", "取消", "撤销", "不要了", "cancel", "cancelled", "canceled", "cancellation");
        c("invoice", "发票", "开票", "invoice", "receipt", "vat");
        c("password", "密码", "password", "passcode");
        c("account", "账号", "账户", "帐号", "account");
        c("login", "登录", "登陆", "登不上", "log in", "login", "sign in", "signin");
        c("phone_number", "手机号", "手机号码", "电话号码", "phone number", "mobile number");
        c("address", "地址", "收货地址", "address");
        c("logistics", "物流", "快递", "运单", "包裹", "发货", "配送", "tracking", "parcel", "package", "courier",
            "shipped", "ship", "shipping", "delivery", "deliver", "delivered");
        c("coupon", "优惠券", "优惠码", "折扣码", "红包", "coupon", "voucher", "promo code", "discount code");
        c("points", "积分", "points", "reward points");
        c("membership", "会员", "vip", "membership", "member");
        c("payment", "付款", "支付", "扣款", "扣费", "付钱", "pay", "paid", "payment", "charged", "charge");
        c("price", "价格", "差价", "降价", "保价", "price", "price drop", "price difference");
        c("warranty", "保修", "质保", "维修", "修理", "warranty", "repair", "repaired");
        c("order", "订单", "order", "orders");
        c("complaint", "投诉", "complaint", "complain");
        c("human", "人工", "客服", "真人", "human", "agent", "customer service", "representative");
        c("installment", "分期", "花呗", "installment", "installments");
        c("damaged", "破损", "坏了", "损坏", "碎了", "质量问题", "damaged", "broken", "defective", "faulty");
        c("wrong_item", "发错", "错发", "少发", "漏发", "wrong item", "missing item", "wrong size");
        c("balance", "余额", "钱包", "balance", "wallet");
        c("gift_card", "礼品卡", "购物卡", "gift card");
        c("bank_card", "银行卡", "信用卡", "bank card", "credit card", "debit card");
        c("size", "尺码", "尺寸", "大小", "size");
        c("stock", "库存", "缺货", "有货", "补货", "in stock", "out of stock", "restock");
        c("address_change", "改地址", "修改地址", "更改地址", "change the address", "change my address",
            "change address", "update my address");
        c("unsubscribe", "注销", "删除账号", "delete my account", "close my account", "close account");
        // actions on a thing
        c("modify", "改", "更换", "change", "update", "edit", "modify");
        c("delete", "删除", "删掉", "delete", "remove");
        c("add", "绑定", "添加", "add", "link", "bind");
        c("unbind", "解绑", "unbind", "unlink");
        c("restore", "恢复", "还原", "restore", "reinstate", "reactivate", "undo");
        // "没收到" is not counted as a negation (it names the problem, see NOT_NEGATIONS), but "received,
        // now what" and "never received" still need different answers: the problem is a concept of its own
        c("not_arrived", "没收到", "没有收到", "未收到", "收不到", "没拿到", "没到", "未到", "不到账");
        // question kinds
        c("q_time", "多久", "多长时间", "几天", "什么时候", "何时", "几个工作日", "how long", "when", "how many days",
            "how soon");
        c("q_who", "谁", "哪方", "who", "whose");
        c("q_cost", "多少钱", "收费", "费用", "要钱", "免费", "how much", "cost", "fee", "free", "charged for");
        c("q_how", "怎么", "如何", "怎样", "流程", "步骤", "how do", "how can", "how to", "steps", "process");
        c("q_where", "哪里", "在哪", "哪儿", "where");
        // "can I …?" and "how do I …?" get the same answer: possibility is deliberately not a concept
        c("q_why", "为什么", "为啥", "怎么回事", "why");
        c("q_status", "进度", "状态", "到哪了", "到哪里了", "status", "progress", "where is my");
        c("q_limit", "上限", "最多", "限额", "limit", "maximum", "at most");
    }

    // failure words have negative polarity: "退款失败" = "退款没成功", "payment failed" = "did not go through"
    private static final List<String> CJK_NEGATIONS = List.of("不", "没", "未", "无", "别", "非", "勿", "失败");
    // 不 inside these words is not a negation of the question
    private static final List<String> NOT_NEGATIONS = List.of("不要了", "不到", "能不能", "可不可以", "是不是",
        "要不要", "有没有", "会不会", "登不上", "对不起", "不好意思", "不客气", "无法", "没收到", "没到", "不到账",
        "没有收到", "并不");
    private static final Pattern EN_NEGATION = Pattern.compile(
        "\\b(not|no|never|without|fail|failed|failing|cannot|can't|cant|don't|dont|didn't|didnt|doesn't|doesnt|isn't|isnt|won't|wont|"
            + "haven't|havent|hasn't|hasnt|wasn't|wasnt|aren't|arent|nothing|none)\\b");
    // English un- on an adjective or participle negates it ("unopened", "unused", "unpaid"); on a verb
    // it is an action of its own ("unlock", "unsubscribe", "unbind"), and some words only start with "un"
    private static final Pattern EN_UN_NEGATION = Pattern.compile(
        "\\bun(?!lock|link|bind|bound|subscrib|install|block|freez|do|der|it|ion|less|til)[a-z]{2,}(?:ed|en)\\b|\\bunpaid\\b");
    private static final Pattern ARABIC = Pattern.compile("\\d+(?:\\.\\d+)?");
    private static final Pattern CN_NUMBER = Pattern.compile("[零一二两三四五六七八九十百千万]+(?=[天个件次号元块年月日周星小分岁折期倍%])");
    // a number's time unit is part of it: "一天" ≠ "一周", "3 days" ≠ "3 weeks"
    private static final Pattern TIME_UNIT = Pattern.compile("^\\s*(天|日|周|星期|个月|月|年|小时|分钟|days?|weeks?|months?|years?|hours?|minutes?)\\b?");
    private static final Map<String, String> EN_NUMBERS = Map.ofEntries(Map.entry("one", "1"), Map.entry("two", "2"),
        Map.entry("three", "3"), Map.entry("four", "4"), Map.entry("five", "5"), Map.entry("six", "6"),
        Map.entry("seven", "7"), Map.entry("eight", "8"), Map.entry("nine", "9"), Map.entry("ten", "10"),
        Map.entry("eleven", "11"), Map.entry("twelve", "12"), Map.entry("fifteen", "15"), Map.entry("twenty", "20"),
        Map.entry("thirty", "30"), Map.entry("fifty", "50"), Map.entry("hundred", "100"), Map.entry("once", "1"),
        Map.entry("twice", "2"));
    private static final Pattern EN_NUMBER = Pattern.compile("\\b(" + String.join("|", EN_NUMBERS.keySet()) + ")\\b");

    private static void c(String concept, String... synonyms) {
        CONCEPTS.put(concept, List.of(synonyms));
    }

    public Verdict verify(String cachedQuestion, String newQuestion) {
        String a = prepare(cachedQuestion);
        String b = prepare(newQuestion);
        if (!numbers(a).equals(numbers(b))) {
            return Verdict.NUMBERS;
        }
        if (negated(a) != negated(b)) {
            return Verdict.NEGATION;
        }
        if (!concepts(a).equals(concepts(b))) {
            return Verdict.TERMS;
        }
        return Verdict.ACCEPTED;
    }

    static String prepare(String text) {
        return " " + Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT)
            .replace('’', '\'') + " ";
    }

    static List<String> numbers(String text) {
        List<String> out = new ArrayList<>();
        Matcher arabic = ARABIC.matcher(text);
        while (arabic.find()) {
            out.add(canonicalNumber(arabic.group()) + unit(text, arabic.end()));
        }
        Matcher cn = CN_NUMBER.matcher(text);
        while (cn.find()) {
            long value = chineseValue(cn.group());
            if (value >= 0) {
                out.add(value + unit(text, cn.end()));
            }
        }
        Matcher en = EN_NUMBER.matcher(text);
        while (en.find()) {
            out.add(EN_NUMBERS.get(en.group(1)) + unit(text, en.end()));
        }
        out.sort(null);
        return out;
    }

    private static String unit(String text, int from) {
        Matcher m = TIME_UNIT.matcher(text.substring(from, Math.min(text.length(), from + 8)));
        if (!m.find()) {
            return "";
        }
        String u = m.group(1);
        return switch (u.charAt(0)) {
            case '天', '日', 'd' -> "d";
            case '周', '星', 'w' -> "w";
            case '个', '月' -> "mo";
            case 'm' -> u.startsWith("mo") ? "mo" : "min";
            case '年', 'y' -> "y";
            case '小', 'h' -> "h";
            case '分' -> "min";
            default -> "";
        };
    }

    private static String canonicalNumber(String digits) {
        try {
            return new java.math.BigDecimal(digits).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return digits;
        }
    }

    /** Simple Chinese numerals up to the ten thousands (一, 十五, 两百, 三千五百); -1 if unreadable. */
    static long chineseValue(String s) {
        long total = 0;
        long section = 0;
        long digit = -1;
        for (char ch : s.toCharArray()) {
            int d = "零一二三四五六七八九".indexOf(ch);
            if (ch == '两') {
                d = 2;
            }
            if (d >= 0) {
                digit = d;
                continue;
            }
            long unit = switch (ch) {
                case '十' -> 10;
                case '百' -> 100;
                case '千' -> 1000;
                case '万' -> 10000;
                default -> -1;
            };
            if (unit < 0) {
                return -1;
            }
            if (unit == 10000) {
                total = (total + section + Math.max(digit, 0)) * unit;
                section = 0;
            } else {
                section += (digit < 0 ? 1 : digit) * unit;
            }
            digit = -1;
        }
        return total + section + Math.max(digit, 0);
    }

    static boolean negated(String text) {
        String cleaned = text;
        for (String phrase : NOT_NEGATIONS) {
            cleaned = cleaned.replace(phrase, " ");
        }
        for (String neg : CJK_NEGATIONS) {
            if (cleaned.contains(neg)) {
                return true;
            }
        }
        return EN_NEGATION.matcher(cleaned).find() || EN_UN_NEGATION.matcher(cleaned).find();
    }

    static Set<String> concepts(String text) {
        Set<String> found = new TreeSet<>();
        for (Map.Entry<String, List<String>> concept : CONCEPTS.entrySet()) {
            for (String synonym : concept.getValue()) {
                if (contains(text, synonym)) {
                    found.add(concept.getKey());
                    break;
                }
            }
        }
        return found;
    }

    private static boolean contains(String text, String synonym) {
        char first = synonym.charAt(0);
        if (first < 0x80) {
            // English: whole words only ("pay" must not match "payment"; phrases match as phrases)
            int from = 0;
            while (true) {
                int at = text.indexOf(synonym, from);
                if (at < 0) {
                    return false;
                }
                int end = at + synonym.length();
                if (!Character.isLetterOrDigit(text.charAt(at - 1)) && (end >= text.length()
                    || !Character.isLetterOrDigit(text.charAt(end)))) {
                    return true;
                }
                from = at + 1;
            }
        }
        return text.contains(synonym);
    }
}
