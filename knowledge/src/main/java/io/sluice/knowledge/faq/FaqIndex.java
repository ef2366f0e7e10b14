package io.sluice.knowledge.faq;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;

/**
 * Lucene BM25 index over FAQ questions and phrasings, on local disk.
 *
 * <p>Rebuilt whole from the FAQ table: small, and a full rebuild keeps it exactly in step.
 */
public class FaqIndex implements AutoCloseable {

    private final Analyzer analyzer = new SmartChineseAnalyzer();
    private final FSDirectory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private volatile Map<Long, FaqEntry> entries = Map.of();

    public FaqIndex(Path dir) {
        try {
            Files.createDirectories(dir);
            directory = FSDirectory.open(dir);
            writer = new IndexWriter(directory, new IndexWriterConfig(analyzer));
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open FAQ index at " + dir, e);
        }
    }

    /** Replaces the index content with these entries in one commit. */
    public synchronized void rebuild(List<FaqEntry> faq) {
        try {
            writer.deleteAll();
            Map<Long, FaqEntry> byId = new HashMap<>();
            for (FaqEntry entry : faq) {
                Document doc = new Document();
                doc.add(new StringField("id", Long.toString(entry.id()), Field.Store.YES));
                doc.add(new TextField("text", entry.question(), Field.Store.NO));
                for (String phrasing : entry.phrasings()) {
                    doc.add(new TextField("text", phrasing, Field.Store.NO));
                }
                doc.add(new StoredField("answer", entry.answer()));
                writer.addDocument(doc);
                byId.put(entry.id(), entry);
            }
            writer.commit();
            searchers.maybeRefreshBlocking();
            entries = Map.copyOf(byId);
        } catch (IOException e) {
            throw new UncheckedIOException("FAQ index rebuild failed", e);
        }
    }

    public Optional<FaqMatch> best(String question) {
        String escaped = QueryParser.escape(question);
        if (escaped.isBlank()) {
            return Optional.empty();
        }
        try {
            Query query = new QueryParser("text", analyzer).parse(escaped);
            IndexSearcher searcher = searchers.acquire();
            try {
                TopDocs top = searcher.search(query, 1);
                if (top.scoreDocs.length == 0) {
                    return Optional.empty();
                }
                String id = searcher.storedFields().document(top.scoreDocs[0].doc).get("id");
                FaqEntry entry = entries.get(Long.parseLong(id));
                return Optional.ofNullable(entry).map(e -> new FaqMatch(e, top.scoreDocs[0].score));
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("FAQ index search failed", e);
        } catch (org.apache.lucene.queryparser.classic.ParseException e) {
            return Optional.empty();
        }
    }

    /** Documents visible to searchers; -1 when the index cannot be read. */
    public int size() {
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            return reader.numDocs();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        searchers.close();
        writer.close();
        directory.close();
    }
}
