package io.sluice.knowledge.answer;

/**
 * The honest no-answer: nothing in the knowledge base is about the question, so no tier answers it
 * (no "AI answer" over unrelated sources). It says so in the question's language and offers the next
 * steps — a human agent, or leaving the question for a deferred answer.
 */
public final class NoAnswer {

    private NoAnswer() {
    }

    public static String text(AnswerLanguage language) {
        return switch (language) {
            case CHINESE_SIMPLIFIED -> "抱歉，知识库里没有与您的问题相关的答案，我不想猜测。"
                + "您可以回复“转人工”由人工客服为您处理，或留下问题，我们稍后答复您。";
            case CHINESE_TRADITIONAL -> "抱歉，知識庫裡沒有與您的問題相關的答案，我不想猜測。"
                + "您可以回覆「轉人工」由真人客服為您處理，或留下問題，我們稍後答覆您。";
            default -> "Sorry, I have no answer to that in our knowledge base, and I would rather not guess. "
                + "Reply \"agent\" to be handed over to a human agent, or leave your question and we will answer it later.";
        };
    }

    /** Whether a text is one of the no-answers (tests and the evaluation recognise it this way). */
    public static boolean is(String text) {
        for (AnswerLanguage l : AnswerLanguage.values()) {
            if (text(l).equals(text)) {
                return true;
            }
        }
        return false;
    }
}
