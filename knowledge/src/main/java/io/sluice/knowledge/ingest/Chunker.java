package io.sluice.knowledge.ingest;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits parsed sections into chunks that never cross a heading and break at sentence ends
 * (Chinese 。！？； and English . ! ? followed by space, and line ends). Consecutive chunks of one
 * section share up to {@code overlapChars} of trailing sentences so a fact split across a boundary
 * is still found whole.
 */
public class Chunker {

    /** One chunk, ready to embed and index. */
    public record Chunk(int ordinal, String heading, String content, String embedText) {

        public Chunk(int ordinal, String heading, String content) {
            this(ordinal, heading, content, null);
        }

        /** What gets indexed for BM25: heading path then content. */
        public String indexText() {
            return heading == null || heading.isBlank() ? content : heading + "\n" + content;
        }

        /** What gets embedded: {@link #indexText()} unless the producer chose a narrower text (FAQ mirrors). */
        public String textToEmbed() {
            return embedText != null ? embedText : indexText();
        }

        /** A rough token count (CJK characters + Latin words) for prompt budgeting. */
        public int tokenEstimate() {
            int tokens = 0;
            boolean inWord = false;
            for (int i = 0; i < content.length(); i++) {
                char c = content.charAt(i);
                if (Character.isIdeographic(c)) {
                    tokens++;
                    inWord = false;
                } else if (Character.isLetterOrDigit(c)) {
                    if (!inWord) {
                        tokens++;
                    }
                    inWord = true;
                } else {
                    inWord = false;
                }
            }
            return tokens;
        }
    }

    private final int maxChars;
    private final int overlapChars;

    public Chunker(int maxChars, int overlapChars) {
        if (maxChars < 50 || overlapChars < 0 || overlapChars >= maxChars / 2) {
            throw new IllegalArgumentException("need maxChars >= 50 and 0 <= overlapChars < maxChars/2");
        }
        this.maxChars = maxChars;
        this.overlapChars = overlapChars;
    }

    public List<Chunk> chunk(ParsedDocument doc) {
        List<Chunk> chunks = new ArrayList<>();
        for (ParsedDocument.Section section : doc.sections()) {
            List<String> sentences = sentences(section.text());
            List<String> current = new ArrayList<>();
            int length = 0;
            for (String sentence : sentences) {
                if (length + sentence.length() > maxChars && !current.isEmpty()) {
                    chunks.add(new Chunk(chunks.size(), section.heading(), join(current)));
                    List<String> carry = new ArrayList<>();
                    int carried = 0;
                    for (int i = current.size() - 1; i >= 0; i--) {
                        String s = current.get(i);
                        if (carried + s.length() > overlapChars) {
                            break;
                        }
                        carry.add(0, s);
                        carried += s.length();
                    }
                    current = carry;
                    length = carried;
                }
                current.add(sentence);
                length += sentence.length();
            }
            if (!current.isEmpty()) {
                chunks.add(new Chunk(chunks.size(), section.heading(), join(current)));
            }
        }
        return chunks;
    }

    /** Sentences with their end punctuation; a sentence longer than maxChars is cut hard. */
    List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                emit(out, sb, true);
                continue;
            }
            sb.append(c);
            boolean cjkEnd = c == '。' || c == '！' || c == '？' || c == '；' || c == '…';
            boolean latinEnd = (c == '.' || c == '!' || c == '?' || c == ';')
                && (i + 1 == n || Character.isWhitespace(text.charAt(i + 1)));
            if (cjkEnd || latinEnd) {
                while (i + 1 < n && "”’\")）」".indexOf(text.charAt(i + 1)) >= 0) {
                    sb.append(text.charAt(++i));
                }
                emit(out, sb, false);
            } else if (sb.length() >= maxChars) {
                emit(out, sb, false);
            }
        }
        emit(out, sb, true);
        return out;
    }

    private static void emit(List<String> out, StringBuilder sb, boolean lineEnd) {
        String s = sb.toString().strip();
        sb.setLength(0);
        if (!s.isEmpty()) {
            out.add(lineEnd ? s + "\n" : s);
        }
    }

    private static String join(List<String> sentences) {
        StringBuilder sb = new StringBuilder();
        for (String s : sentences) {
            if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != '\n') {
                char last = sb.charAt(sb.length() - 1);
                char first = s.charAt(0);
                if (last < 0x3000 && first < 0x3000) {
                    sb.append(' ');
                }
            }
            sb.append(s);
        }
        return sb.toString().strip();
    }
}
