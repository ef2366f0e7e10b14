package io.sluice.semantics.pairs;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sluice.knowledge.text.TextNormalizer;

/**
 * Reads the {@link QuestionSignals} of one question: the one home of the cache verifier's word lists
 * (numbers, negation, direction, customer-service concepts). Everything is read from the normalised
 * text (case, width and Traditional → Simplified folded), so 設定鬧鐘 and 设定闹钟 read alike. Pure and
 * thread-safe; a few microseconds per question.
 */
public final class QuestionAnalyzer {

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
        c("password", "密码", "password", "passcode", "pin");
        c("account", "账号", "账户", "帐号", "帐户", "account");
        c("login", "登录", "登陆", "登不上", "log in", "login", "sign in", "signin", "log into");
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
        c("bank_card", "银行卡", "信用卡", "储蓄卡", "借记卡", "bank card", "credit card", "debit card");
        c("size", "尺码", "尺寸", "大小", "size");
        c("stock", "库存", "缺货", "有货", "补货", "in stock", "out of stock", "restock");
        c("address_change", "改地址", "修改地址", "更改地址", "change the address", "change my address",
            "change address", "update my address");
        c("unsubscribe", "注销", "删除账号", "delete my account", "close my account", "close account");
        c("transfer", "转账", "转帐", "汇款", "转钱", "transfer", "wire", "send money");
        c("loan", "贷款", "借款", "loan", "mortgage");
        c("interest", "利息", "利率", "interest", "rate");
        c("fee_annual", "年费", "annual fee");
        c("limit_amount", "额度", "credit limit", "spending limit");
        c("statement", "账单", "帐单", "对账单", "statement", "bill");
        c("atm", "取款机", "atm", "cash machine");
        c("cash", "取现", "取钱", "现金", "cash", "withdraw", "withdrawal");
        c("lost", "丢了", "丢失", "挂失", "被偷", "不见了", "lost", "stolen", "missing card");
        c("fraud", "盗刷", "诈骗", "被骗", "fraud", "scam", "unauthorized", "unauthorised");
        c("exchange_rate", "汇率", "exchange rate");
        c("data_plan", "流量", "套餐", "data plan", "mobile data", "plan");
        c("signal", "信号", "没网", "网络", "signal", "network", "coverage");
        c("roaming", "漫游", "roaming", "abroad");
        c("sim", "sim卡", "电话卡", "sim", "sim card");
        c("alarm", "闹钟", "alarm");
        c("weather", "天气", "weather", "forecast");
        c("ticket", "车票", "机票", "火车票", "高铁", "航班", "ticket", "tickets", "flight", "train");
        // actions on a thing
        c("modify", "改", "更换", "change", "update", "edit", "modify");
        c("delete", "删除", "删掉", "delete", "remove");
        c("add", "绑定", "添加", "add", "link", "bind");
        c("unbind", "解绑", "unbind", "unlink");
        c("restore", "恢复", "还原", "restore", "reinstate", "reactivate", "undo");
        c("activate", "激活", "开通", "启用", "activate", "enable");
        c("unfreeze", "解冻", "解锁", "解除冻结", "解除锁定", "unfreeze", "unblock", "unlock");
        c("expire", "过期", "失效", "有效期", "expire", "expired", "expiry", "expiration");
        c("redeem", "兑换", "抵现", "抵扣", "redeem", "use my points");
        c("void", "作废", "冲红", "红冲", "void", "voided");
        c("increase", "提高", "提升", "调高", "增加", "升级", "raise", "increase", "higher", "upgrade");
        c("decrease", "降低", "调低", "减少", "降级", "lower", "decrease", "reduce", "downgrade");
        c("freeze", "冻结", "锁定", "freeze", "frozen", "block", "blocked", "lock", "locked");
        c("open", "开户", "办卡", "申请卡", "open an account", "open a new account");
        // "没收到" is not counted as a negation (it names the problem, see NOT_NEGATIONS), but "received,
        // now what" and "never received" still need different answers: the problem is a concept of its own
        c("not_arrived", "没收到", "没有收到", "未收到", "收不到", "无法收到", "没法收到", "没拿到", "没到", "未到", "不到账",
            "不到帐",
            "not received", "hasn't arrived", "has not arrived", "not arrived", "didn't arrive", "never arrived",
            "didn't receive", "never received", "haven't received", "still not");
        // question kinds
        c("q_time", "多久", "多长时间", "几天", "什么时候", "何时", "几个工作日", "how long", "when", "how many days",
            "how soon");
        c("q_who", "谁", "哪方", "who", "whose");
        c("q_cost", "多少钱", "收费", "费用", "要钱", "免费", "手续费", "how much", "cost", "fee", "fees", "free",
            "charged for");
        c("q_how", "怎么", "如何", "怎样", "流程", "步骤", "how do", "how can", "how to", "steps", "process");
        c("q_where", "哪里", "在哪", "哪儿", "where");
        // "can I …?" and "how do I …?" get the same answer: possibility is deliberately not a concept
        c("q_why", "为什么", "为啥", "怎么回事", "why");
        c("q_status", "进度", "状态", "到哪了", "到哪里了", "status", "progress", "where is my");
        c("q_limit", "上限", "最多", "限额", "limit", "maximum", "at most");
    }

    // failure words have negative polarity: "退款失败" = "退款没成功", "payment failed" = "did not go through";
    // 无法 / 没法 / 没办法 negate like 不能 ("无法登录" = "不能登录" = "登录不了")
    private static final List<String> CJK_NEGATIONS = List.of("不", "没", "未", "无", "别", "非", "勿", "失败");
    // 不 / 没 inside these words is not a negation of the question
    private static final List<String> NOT_NEGATIONS = List.of("不要了", "不到", "能不能", "可不可以", "是不是",
        "要不要", "有没有", "会不会", "对不起", "不好意思", "不客气", "没收到", "没到", "不到账", "没有收到",
        "并不", "无法收到", "没法收到", "不见了", "无论", "无线", "差不多", "不用谢", "行不行", "好不好", "对不对");
    private static final Pattern EN_NEGATION = Pattern.compile(
        "\\b(not|no|never|without|fail|failed|failing|cannot|can't|cant|don't|dont|didn't|didnt|doesn't|doesnt|isn't|isnt|"
            + "won't|wont|haven't|havent|hasn't|hasnt|wasn't|wasnt|aren't|arent|couldn't|couldnt|unable|nothing|none)\\b");
    // English un- on an adjective or participle negates it ("unopened", "unused", "unpaid"); on a verb
    // it is an action of its own ("unlock", "unsubscribe", "unbind"), and some words only start with "un"
    private static final Pattern EN_UN_NEGATION = Pattern.compile(
        "\\bun(?!lock|link|bind|bound|subscrib|install|block|freez|do|der|it|ion|less|til|authori)[a-z]{2,}(?:ed|en)\\b"
            + "|\\bunpaid\\b");
    private static final Pattern ARABIC = Pattern.compile("\\d+(?:[.:]\\d+)?");
    private static final Pattern CN_NUMBER = Pattern.compile("[零一二两三四五六七八九十百千万]+");
    // idioms whose characters are numerals but mean no number ("问一下", "千万别", "十分感谢")
    private static final List<String> NOT_NUMBERS = List.of("一下", "一些", "一起", "一样", "一直", "一定", "一般",
        "一点点", "一点儿", "有一点", "快一点", "早一点", "便宜一点", "一旦", "万一", "统一", "唯一", "一致", "一切",
        "同一", "十分", "千万", "一会", "一边", "一共", "不一", "一模一样", "一再", "一下子", "之一", "一并", "一律",
        "一键", "一口气", "一路", "一次性", "三星", "一些些");
    // a bare 一 is an article ("一个订单") unless a unit makes it a quantity ("一天", "一点")
    private static final String ONE_UNITS = "天号元块年月日周星小分岁折期倍%点";
    // a number's unit is part of it: "一天" ≠ "一周", "3 days" ≠ "3 weeks"
    private static final Pattern UNIT = Pattern.compile(
        "^\\s*(天|日|周|星期|个月|月|年|小时|分钟|点半|点|days?|weeks?|months?|years?|hours?|minutes?|pm|am|%)");
    private static final Map<String, String> EN_NUMBERS = Map.ofEntries(Map.entry("one", "1"), Map.entry("two", "2"),
        Map.entry("three", "3"), Map.entry("four", "4"), Map.entry("five", "5"), Map.entry("six", "6"),
        Map.entry("seven", "7"), Map.entry("eight", "8"), Map.entry("nine", "9"), Map.entry("ten", "10"),
        Map.entry("eleven", "11"), Map.entry("twelve", "12"), Map.entry("fifteen", "15"), Map.entry("twenty", "20"),
        Map.entry("thirty", "30"), Map.entry("fifty", "50"), Map.entry("hundred", "100"), Map.entry("once", "1"),
        Map.entry("twice", "2"), Map.entry("half", "0.5"));
    private static final Pattern EN_NUMBER = Pattern.compile("\\b(" + String.join("|", EN_NUMBERS.keySet()) + ")\\b");

    // direction: "上海到郑州", "从郑州去上海", "from London to Paris", "London to Paris"
    private static final String CONNECTORS = "到至去飞往→";
    // characters that end a place name on either side ("退款到账", "寄到哪", "我想去" are no directions)
    // (never characters of common place names: 天津, 成都, 长沙, 上海, 西安 ...)
    private static final String NOT_PLACE = "的了吗呢吧啊是在有和与及或我你他她它们要想去来坐乘买订查询问从到至往飞开走需"
        + "多少几久钱票怎么样什何哪能可会请帮给把被让退换收发账款货单快时候点分号还再就也又已经送寄转存取汇提"
        + "元块个次件张笔这那每各";
    private static final Pattern EN_FROM_TO = Pattern.compile("\\bfrom ([a-z]+(?: [a-z]+)?) to ([a-z]+(?: [a-z]+)?)\\b");
    private static final Pattern EN_CAPITAL_TO = Pattern.compile("\\b([A-Z][a-z]+) to ([A-Z][a-z]+)\\b");
    private static final Set<String> EN_NOT_PLACE = Set.of("how", "what", "want", "need", "like", "go", "have", "due",
        "up", "able", "back", "is", "it", "i", "me", "you", "order", "pay", "money", "transfer", "send", "sent");
    private static final Pattern LATIN_WORD = Pattern.compile("[a-z0-9][a-z0-9'_-]*");
    private static final Set<String> EN_STOP = Set.of("a", "an", "the", "i", "my", "me", "is", "are", "do", "does",
        "to", "of", "for", "in", "on", "at", "it", "can", "could", "would", "please", "you", "your", "be", "and",
        "or", "with", "this", "that", "there", "what", "we", "our", "am", "was", "will", "have", "has", "get");

    private static void c(String concept, String... synonyms) {
        CONCEPTS.put(concept, List.of(synonyms));
    }

    /**
     * The platform's one normalisation ({@link TextNormalizer}: NFKC case fold, Traditional → Simplified),
     * so the lexical features and the vectors read the same text; curly apostrophes folded for English.
     */
    public static String normalize(String text) {
        return TextNormalizer.normalize(text).replace('\u2019', '\'');
    }

    public QuestionSignals analyze(String question) {
        String original = question == null ? "" : question;
        String text = normalize(original);
        String padded = " " + text + " ";
        return new QuestionSignals(text, numbers(padded), negated(padded), directions(padded, original),
            concepts(padded), entities(text, original), grams(text));
    }

    static List<String> numbers(String text) {
        List<String> out = new ArrayList<>();
        Matcher arabic = ARABIC.matcher(text);
        while (arabic.find()) {
            out.add(canonical(arabic.group().replace(':', '.')) + unit(text, arabic.end()));
        }
        String masked = text;
        for (String idiom : NOT_NUMBERS) {
            masked = masked.replace(idiom, "　".repeat(idiom.length()));
        }
        Matcher cn = CN_NUMBER.matcher(masked);
        while (cn.find()) {
            String run = cn.group();
            int end = cn.end();
            if (run.equals("一") && (end >= masked.length() || ONE_UNITS.indexOf(masked.charAt(end)) < 0)) {
                continue;
            }
            long value = chineseValue(run);
            if (value >= 0) {
                out.add(value + unit(masked, end));
            }
        }
        Matcher en = EN_NUMBER.matcher(text);
        while (en.find()) {
            out.add(EN_NUMBERS.get(en.group(1)) + unit(text, en.end()));
        }
        return out;
    }

    private static String unit(String text, int from) {
        Matcher m = UNIT.matcher(text.substring(from, Math.min(text.length(), from + 8)));
        if (!m.find()) {
            return "";
        }
        String u = m.group(1);
        return switch (u) {
            case "天", "日", "day", "days" -> "d";
            case "周", "星期", "week", "weeks" -> "w";
            case "个月", "月", "month", "months" -> "mo";
            case "年", "year", "years" -> "y";
            case "小时", "hour", "hours" -> "h";
            case "分钟", "minute", "minutes" -> "min";
            case "点半" -> ":30";
            case "点" -> ":";
            case "pm" -> "pm";
            case "am" -> "am";
            case "%" -> "%";
            default -> "";
        };
    }

    private static String canonical(String digits) {
        try {
            return new BigDecimal(digits).stripTrailingZeros().toPlainString();
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

    static List<String> directions(String text, String original) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); i++) {
            if (CONNECTORS.indexOf(text.charAt(i)) < 0) {
                continue;
            }
            String from = placeBefore(text, i);
            String to = placeAfter(text, i + 1);
            if (from.length() >= 2 && to.length() >= 2) {
                out.add(from + ">" + to);
            }
        }
        Matcher en = EN_FROM_TO.matcher(text);
        while (en.find()) {
            out.add(en.group(1) + ">" + en.group(2));
        }
        Matcher capital = EN_CAPITAL_TO.matcher(original);
        while (capital.find()) {
            String from = capital.group(1).toLowerCase(Locale.ROOT);
            String to = capital.group(2).toLowerCase(Locale.ROOT);
            if (!EN_NOT_PLACE.contains(from) && !EN_NOT_PLACE.contains(to) && !out.contains(from + ">" + to)) {
                out.add(from + ">" + to);
            }
        }
        return out;
    }

    private static String placeBefore(String text, int connector) {
        int start = connector;
        while (start > 0 && connector - start < 4 && isPlaceChar(text.charAt(start - 1))) {
            start--;
        }
        return text.substring(start, connector);
    }

    private static String placeAfter(String text, int from) {
        int end = from;
        while (end < text.length() && end - from < 4 && isPlaceChar(text.charAt(end))) {
            end++;
        }
        return text.substring(from, end);
    }

    private static boolean isPlaceChar(char ch) {
        return Character.UnicodeScript.of(ch) == Character.UnicodeScript.HAN && NOT_PLACE.indexOf(ch) < 0
            && "零一二两三四五六七八九十百千万".indexOf(ch) < 0;
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

    static boolean contains(String text, String synonym) {
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
                boolean startOk = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
                boolean endOk = end >= text.length() || !Character.isLetterOrDigit(text.charAt(end));
                if (startOk && endOk) {
                    return true;
                }
                from = at + 1;
            }
        }
        return text.contains(synonym);
    }

    /** Latin words inside Chinese text (VIP, iPhone), codes with digits (A320), names capitalised mid-sentence. */
    static Set<String> entities(String text, String original) {
        Set<String> out = new TreeSet<>();
        boolean han = text.codePoints().anyMatch(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN);
        Matcher words = LATIN_WORD.matcher(text);
        while (words.find()) {
            String w = words.group();
            boolean code = w.chars().anyMatch(Character::isDigit) && w.chars().anyMatch(Character::isLetter);
            if (code || han && w.length() > 1 && !EN_STOP.contains(w)) {
                out.add(w);
            }
        }
        Matcher capital = Pattern.compile("(?<=[a-z,] )([A-Z][a-zA-Z]+)").matcher(original);
        while (capital.find()) {
            out.add(capital.group(1).toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** CJK character bigrams (single characters for one-character runs) and Latin content words. */
    static Set<String> grams(String text) {
        Set<String> out = new LinkedHashSet<>();
        StringBuilder run = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char ch = i < text.length() ? text.charAt(i) : ' ';
            if (Character.UnicodeScript.of(ch) == Character.UnicodeScript.HAN) {
                run.append(ch);
                continue;
            }
            flushHan(run, out);
        }
        Matcher words = LATIN_WORD.matcher(text);
        while (words.find()) {
            String w = words.group();
            if (!EN_STOP.contains(w)) {
                out.add(stem(w));
            }
        }
        return out;
    }

    private static void flushHan(StringBuilder run, Set<String> out) {
        if (run.length() == 1) {
            out.add(run.toString());
        }
        for (int j = 0; j + 1 < run.length(); j++) {
            out.add(run.substring(j, j + 2));
        }
        run.setLength(0);
    }

    /** A light English stem so "refunds" and "refunded" share a unit with "refund". */
    private static String stem(String w) {
        if (w.length() > 4 && w.endsWith("ing")) {
            return w.substring(0, w.length() - 3);
        }
        if (w.length() > 3 && w.endsWith("ed")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }
}
