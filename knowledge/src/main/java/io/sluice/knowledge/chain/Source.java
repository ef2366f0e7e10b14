package io.sluice.knowledge.chain;

/**
 * Where a passage comes from.
 *
 * @param documentId external id of the document ({@code faq:<key>} for a FAQ entry's mirror)
 * @param title      document title or FAQ question
 * @param heading    heading path inside the document, may be empty
 * @param url        source URL if the document had one
 * @param faqKey     the FAQ entry's key when the passage is (or mirrors) a FAQ entry, else null
 */
public record Source(String documentId, String title, String heading, String url, String faqKey) {

    /** Mirrors of FAQ entries in the document tiers use this id prefix. */
    public static final String FAQ_DOCUMENT_PREFIX = "faq:";

    /**
     * FAQ mirrors have one chunk per question/phrasing (9–10 per entry in the sample): the document
     * tiers fetch this many times k and keep the best chunk per entry, so top-k still holds k entries.
     */
    public static final int FAQ_COLLAPSE_OVERFETCH = 10;

    public static String faqKeyOf(String documentId) {
        return documentId != null && documentId.startsWith(FAQ_DOCUMENT_PREFIX)
            ? documentId.substring(FAQ_DOCUMENT_PREFIX.length()) : null;
    }
}
