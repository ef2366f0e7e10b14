package io.sluice.api.intent;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.NormalizingEmbedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.TaxonomyChange;
import io.sluice.semantics.intent.TaxonomyImport;

/**
 * The team's second taxonomy (retail banking, 13 intents over S/A/B, 20 examples each in Chinese and
 * English: {@code intents/banking-training.csv}) and its held-out messages, written separately and
 * never used for training or tuning ({@code intents/banking-heldout.csv}: 312 in-domain, 20 out of
 * domain labelled B).
 */
final class BankingData {

    static final String TRAINING = "/intents/banking-training.csv";
    static final String HELD_OUT = "/intents/banking-heldout.csv";

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "test-embedder");
        t.setDaemon(true);
        return t;
    });
    /** The production embedding front: normalise, cache, BGE small zh. */
    static final Embedder EMBEDDER = new NormalizingEmbedder(new CachingEmbedder(new OnnxBgeEmbedder(16, POOL), 4096));
    /** The English model for Latin-script messages, as the application configures it by default (or -Dsluice.test.english-model). */
    static final Embedder ENGLISH = new NormalizingEmbedder(new CachingEmbedder(
        EnglishModels.create(io.sluice.knowledge.support.SharedEmbedder.ENGLISH_MODEL, 16, POOL, true), 4096));

    /** One held-out message: intent null for out of domain. */
    record Item(String text, String intent, String priority) {
    }

    private BankingData() {
    }

    static List<IntentDefinition> taxonomy() {
        try (Reader in = reader(TRAINING)) {
            TaxonomyChange change = TaxonomyImport.read(in, TaxonomyImport.Format.CSV, Map.of(), "test");
            return change.intents();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Item> heldOut() {
        List<Item> items = new ArrayList<>();
        try (var in = new java.io.BufferedReader(reader(HELD_OUT))) {
            String text = in.lines().collect(java.util.stream.Collectors.joining("\n"));
            for (io.sluice.semantics.files.CsvTable.Row row : io.sluice.semantics.files.CsvTable.read(text, true, 100_000).rows()) {
                List<String> cells = List.copyOf(row.fields().values());
                items.add(new Item(cells.get(0), cells.get(1).isBlank() ? null : cells.get(1), cells.get(2)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return items;
    }

    static Reader reader(String resource) {
        return new InputStreamReader(BankingData.class.getResourceAsStream(resource), StandardCharsets.UTF_8);
    }
}
