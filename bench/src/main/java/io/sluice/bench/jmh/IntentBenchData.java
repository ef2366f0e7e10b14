package io.sluice.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.api.intent.IntentFeatures;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.knowledge.embedding.NormalizingEmbedder;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.semantics.files.CsvTable;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.TaxonomyImport;

/**
 * The team's retail-banking taxonomy and held-out messages (platform-api test resources, read from
 * the repository: scripts/jmh.sh runs from its root) and the production feature front without the
 * query cache and without the process-wide embedding memo, so every decision and every training pays
 * the inference of each text (a message never seen before).
 */
final class IntentBenchData {

    static final Path DIR = Path.of("platform-api/src/test/resources/intents");

    private IntentBenchData() {
    }

    static IntentFeatures uncachedFeatures() {
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "bench-embedder");
            t.setDaemon(true);
            return t;
        });
        // memoize=false: the process-wide embedding memo would turn a repeated message into a lookup
        return new IntentFeatures(new NormalizingEmbedder(new OnnxBgeEmbedder(32, pool, false)),
            new NormalizingEmbedder(EnglishModels.create(EnglishModels.DEFAULT, 32, pool, false)), new RuleIntentClassifier());
    }

    static List<IntentDefinition> taxonomy() {
        try {
            return TaxonomyImport.read(Files.newBufferedReader(DIR.resolve("banking-training.csv")),
                TaxonomyImport.Format.CSV, Map.of(), "bench").intents();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> heldOutTexts() {
        try {
            List<String> texts = new ArrayList<>();
            for (CsvTable.Row row : CsvTable.read(Files.readString(DIR.resolve("banking-heldout.csv")), true, 100_000).rows()) {
                texts.add(row.get("text"));
            }
            return texts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A taxonomy of {@code size} distinct examples for the training benchmark: the banking examples,
     * each also with a greeting before or a remark after it (the intents and their classes unchanged).
     */
    static List<IntentDefinition> taxonomyOf(int size) {
        String[] before = {"", "你好，", "请问", "麻烦问下，", "hi, ", "hello, ", "excuse me, ", "客服，", "您好 ", "hey "};
        String[] after = {"", "，谢谢", "？", " thanks", " please", "，急", " asap", "，在线等", " thank you", "!"};
        List<IntentDefinition> base = taxonomy();
        int perIntent = (size + base.size() - 1) / base.size();
        List<IntentDefinition> out = new ArrayList<>();
        int total = 0;
        for (IntentDefinition intent : base) {
            Map<String, Boolean> texts = new LinkedHashMap<>();
            outer:
            for (String a : after) {
                for (String b : before) {
                    for (String text : intent.examples()) {
                        if (texts.size() >= perIntent || total + texts.size() >= size) {
                            break outer;
                        }
                        texts.put(b + text + a, true);
                    }
                }
            }
            total += texts.size();
            out.add(new IntentDefinition(intent.key(), intent.priority(), intent.description(),
                List.copyOf(texts.keySet()), "bench", null));
        }
        return out;
    }
}
