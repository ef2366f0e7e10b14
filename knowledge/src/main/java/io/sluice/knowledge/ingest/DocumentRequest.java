package io.sluice.knowledge.ingest;

import java.time.Instant;
import java.util.List;

/**
 * A document to ingest.
 *
 * @param externalId  stable id chosen by the caller (re-ingesting the same id updates the document)
 * @param title       null = taken from the document's first heading or the file name
 * @param fileName    used to detect the format when contentType is blank or application/octet-stream
 * @param contentType text/markdown, text/plain, text/html or application/pdf
 */
public record DocumentRequest(String externalId, String title, String fileName, String contentType, byte[] content,
        String sourceUrl, String category, List<String> tags, Instant validFrom, Instant validUntil) {

    public static DocumentRequest of(String externalId, String fileName, String contentType, byte[] content) {
        return new DocumentRequest(externalId, null, fileName, contentType, content, null, null, List.of(), null, null);
    }

    public DocumentRequest withCategory(String c) {
        return new DocumentRequest(externalId, title, fileName, contentType, content, sourceUrl, c, tags, validFrom,
            validUntil);
    }

    public DocumentRequest withContent(byte[] c) {
        return new DocumentRequest(externalId, title, fileName, contentType, c, sourceUrl, category, tags, validFrom,
            validUntil);
    }
}
