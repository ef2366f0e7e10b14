package io.sluice.api.chat;

/**
 * Feedback on one answer.
 *
 * @param helpful    whether the answer helped (optional)
 * @param moreDetail ask for a better answer: re-answered at the highest tier allowed right now
 */
public record FeedbackRequest(Boolean helpful, Boolean moreDetail) {

    public boolean wantsMoreDetail() {
        return Boolean.TRUE.equals(moreDetail);
    }

    /** The value stored in conversation_message.feedback. */
    String stored() {
        if (wantsMoreDetail()) {
            return "MORE_DETAIL";
        }
        if (helpful == null) {
            return null;
        }
        return helpful ? "HELPFUL" : "NOT_HELPFUL";
    }
}
