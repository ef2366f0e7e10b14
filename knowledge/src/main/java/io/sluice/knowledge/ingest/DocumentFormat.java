package io.sluice.knowledge.ingest;

import java.util.Locale;
import java.util.Optional;

/** Document formats ingestion understands. */
public enum DocumentFormat {
    MARKDOWN("text/markdown", ".md", ".markdown"),
    TEXT("text/plain", ".txt", ".text"),
    HTML("text/html", ".html", ".htm"),
    PDF("application/pdf", ".pdf"),
    DOCX("application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".docx"),
    XLSX("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx"),
    PPTX("application/vnd.openxmlformats-officedocument.presentationml.presentation", ".pptx");

    /** What ingestion understands, for messages and docs. */
    public static final String SUPPORTED = "Markdown, plain text, HTML, PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx)";

    private final String mediaType;
    private final String[] extensions;

    DocumentFormat(String mediaType, String... extensions) {
        this.mediaType = mediaType;
        this.extensions = extensions;
    }

    public String mediaType() {
        return mediaType;
    }

    /** By media type (parameters such as charset ignored), else by file-name extension. */
    public static Optional<DocumentFormat> detect(String contentType, String fileName) {
        if (contentType != null && !contentType.isBlank()) {
            String base = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
            for (DocumentFormat f : values()) {
                if (f.mediaType.equals(base) || (f == MARKDOWN && base.equals("text/x-markdown"))
                        || (f == HTML && base.equals("application/xhtml+xml"))) {
                    return Optional.of(f);
                }
            }
            // generic types (a zip is what an OOXML file is): the file name tells
            if (!base.equals("application/octet-stream") && !base.equals("application/zip")
                    && !base.equals("application/x-zip-compressed")) {
                return Optional.empty();
            }
        }
        if (fileName != null) {
            String lower = fileName.toLowerCase(Locale.ROOT);
            for (DocumentFormat f : values()) {
                for (String ext : f.extensions) {
                    if (lower.endsWith(ext)) {
                        return Optional.of(f);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
