package io.sluice.knowledge.lexical;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.store.StoredChunk;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BM25 analyses the normalised text on both sides; an index analysed otherwise is recognised for a rebuild. */
class NormalizedBm25Test {

    @TempDir
    Path dir;

    private static StoredChunk chunk(String id, String text) {
        return new StoredChunk(id, "t", null, null, Instant.now(), null, null, 0, "", text, null);
    }

    @Test
    void aSimplifiedQuestionFindsATraditionalEntryAndTheOtherWayRound() throws Exception {
        try (LuceneIndex index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"), 512)) {
            index.upsertDocument("trad", List.of(chunk("trad", "信用卡遺失了怎麼辦？請立即辦理掛失")));
            index.upsertDocument("simp", List.of(chunk("simp", "积分怎么兑换？在会员中心兑换")));
            index.upsertDocument("en", List.of(chunk("en", "How do I RESET my Password?")));
            SearchFilter any = new SearchFilter(null, Instant.now());
            assertThat(index.searchBm25("信用卡遗失了怎么挂失", any, 3)).extracting(p -> p.source().documentId())
                .first().isEqualTo("trad");
            assertThat(index.searchBm25("積分怎麼兌換", any, 3)).extracting(p -> p.source().documentId())
                .first().isEqualTo("simp");
            assertThat(index.searchBm25("ｒｅｓｅｔ password", any, 3)).extracting(p -> p.source().documentId())
                .first().isEqualTo("en");
            assertThat(index.analysisCurrent()).isTrue();
        }
    }

    @Test
    void anIndexWrittenWithoutTheAnalysisMarkIsNotCurrentUntilRewritten() throws Exception {
        Path old = dir.resolve("old");
        try (FSDirectory d = FSDirectory.open(old);
                IndexWriter w = new IndexWriter(d, new IndexWriterConfig(LexicalAnalyzers.create("smartcn")))) {
            Document doc = new Document();
            doc.add(new StringField("doc", "legacy", Field.Store.YES));
            w.addDocument(doc);
            w.commit();
        }
        try (LuceneIndex index = new LuceneIndex(old, LexicalAnalyzers.create("smartcn"), 512)) {
            assertThat(index.size()).isPositive();
            assertThat(index.analysisCurrent()).isFalse();
            index.replaceAll(List.of(chunk("fresh", "新的内容")));
            assertThat(index.analysisCurrent()).isTrue();
        }
    }
}
