package io.sluice.knowledge.ingest;

import java.time.Duration;

/**
 * What parsing one document may cost, so a small file cannot take the server's memory or CPU (a PDF of
 * 2 MB can decompress to gigabytes). Exceeding a limit refuses the document with
 * {@link IngestException.Problem#LIMITS_EXCEEDED}; nothing of it is stored.
 *
 * @param maxDecompressedBytes total decoded size of a PDF's content streams (pages and forms)
 * @param maxTextChars         text extracted from one document
 * @param maxParseTime         time parsing one document may take
 */
public record ParseLimits(long maxDecompressedBytes, int maxTextChars, Duration maxParseTime) {

    public static final ParseLimits DEFAULT = new ParseLimits(64L * 1024 * 1024, 2_000_000, Duration.ofSeconds(20));

    public ParseLimits {
        if (maxDecompressedBytes < 1 || maxTextChars < 1 || maxParseTime.isNegative() || maxParseTime.isZero()) {
            throw new IllegalArgumentException("parse limits must be positive");
        }
    }
}
