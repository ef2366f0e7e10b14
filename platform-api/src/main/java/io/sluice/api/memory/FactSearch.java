package io.sluice.api.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.sluice.api.session.SessionFact;
import io.sluice.knowledge.lexical.LexicalAnalyzers;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;

/**
 * BM25 over one session's facts: an in-memory Lucene index built per lookup (a session has at most
 * {@code sluice.chat.session.max-facts}, 50, facts: building it is well under a millisecond), with the
 * knowledge module's {@code cjk} analyzer (overlapping CJK bigrams, English words without stop words). Not
 * smartcn, the retrieval tier's default: over a handful of short facts the IDF of its one-character function
 * words (的, 我, 了) outweighs the one content word two messages share (补偿), and bigrams carry no such words.
 */
public final class FactSearch {

    private final Analyzer analyzer = LexicalAnalyzers.create("cjk");

    /** A fact and how well it matched. */
    public record Match(SessionFact fact, float score) {
    }

    /** The facts matching {@code message} best, at most {@code k}, best first; facts nothing matches are left out. */
    public List<Match> search(List<SessionFact> facts, String message, int k) {
        if (facts.isEmpty() || k <= 0 || message == null || message.isBlank()) {
            return List.of();
        }
        Query query = new QueryBuilder(analyzer).createBooleanQuery("text", message);
        if (query == null) {
            return List.of();
        }
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory()) {
            try (IndexWriter writer = new IndexWriter(directory,
                    new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity()))) {
                for (int i = 0; i < facts.size(); i++) {
                    Document doc = new Document();
                    doc.add(new TextField("text", facts.get(i).text(), Field.Store.NO));
                    doc.add(new StoredField("i", i));
                    writer.addDocument(doc);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setSimilarity(new BM25Similarity());
                List<Match> out = new ArrayList<>();
                for (ScoreDoc hit : searcher.search(query, k).scoreDocs) {
                    int i = searcher.storedFields().document(hit.doc).getField("i").numericValue().intValue();
                    out.add(new Match(facts.get(i), hit.score));
                }
                return out;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
