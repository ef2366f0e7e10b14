package io.sluice.semantics.intent;

/** A refused import file: the line it failed on and why, never the line's text. */
public class TaxonomyImportException extends IllegalArgumentException {

    private final int line;

    public TaxonomyImportException(int line, String reason) {
        super(line > 0 ? "line " + line + ": " + reason : reason);
        this.line = line;
    }

    /** 1-based line number, 0 when the file as a whole is wrong. */
    public int line() {
        return line;
    }
}
