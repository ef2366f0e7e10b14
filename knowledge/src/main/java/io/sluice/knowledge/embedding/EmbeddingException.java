package io.sluice.knowledge.embedding;

/** Embedding failed (model error, endpoint down or answering nonsense). */
public class EmbeddingException extends RuntimeException {

    public EmbeddingException(String message) {
        super(message);
    }

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }
}
