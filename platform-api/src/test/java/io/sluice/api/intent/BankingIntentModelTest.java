package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.semantics.intent.IntentDefinition;
import io.sluice.semantics.intent.IntentModel;
import io.sluice.semantics.intent.IntentModelCodec;
import io.sluice.semantics.intent.IntentScores;
import io.sluice.semantics.intent.IntentTrainer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The trained intent model on the team's retail-banking taxonomy (a domain the sample does not cover),
 * with the real ONNX embedder behind the production front, measured on 332 held-out messages written
 * separately (never trained or tuned on), through {@link OnlineIntent} — the decision the chat runs.
 * Baselines on the same messages: the rules alone and the sample kNN pipeline the chat used before.
 */
class BankingIntentModelTest {

    static final RuleIntentClassifier RULES = new RuleIntentClassifier();
    static final IntentFeatures FEATURES = new IntentFeatures(BankingData.EMBEDDER, BankingData.ENGLISH, RULES);
    static IntentModel model;
    static List<BankingData.Item> heldOut;

    @BeforeAll
    static void train() {
        List<IntentDefinition> taxonomy = BankingData.taxonomy();
        IntentTrainer.Trained trained = new IntentTrainer(FEATURES::ofAll).train(taxonomy,
            FEATURES.embedderId(), new IntentTrainer.Settings(0.2, 0.3, 0.4));
        model = trained.model();
        heldOut = BankingData.heldOut();
        System.out.printf("banking: %d intents, trained on %d examples in %d ms (embedding %d ms; C=%s, T=%.2f, S floor %.2f)%n",
            taxonomy.size(), trained.trainingExamples(), trained.trainingMillis(), trained.embeddingMillis(), trained.c(),
            model.temperature(), model.sFloor());
    }

    static OnlineIntent online(List<IntentEnhancer> enhancers, IntentModel active) {
        return new OnlineIntent(RULES, enhancers, 0.7, new IntentMetrics(new SimpleMeterRegistry()), FEATURES,
            () -> active, 1.0);
    }

    static IntentScores.Summary measure(OnlineIntent online, IntentModel withModel) {
        List<IntentScores.Judged> judged = new ArrayList<>();
        for (BankingData.Item item : heldOut) {
            IntentResult r = online.classify(item.text(), IntentPath.CHAT, withModel);
            judged.add(new IntentScores.Judged(item.intent(), item.priority(), r.code(), r.priority().name()));
            if (withModel != null && "S".equals(item.priority()) && r.priority() == Priority.B) {
                System.out.printf("    S->B: %s -> %s %.2f %s%n", item.intent(), r.code(), r.confidence(), r.evidence());
            }
        }
        IntentScores.Summary all = IntentScores.of(judged);
        List<IntentScores.Judged> en = new ArrayList<>();
        List<IntentScores.Judged> zh = new ArrayList<>();
        for (int i = 0; i < judged.size(); i++) {
            (io.sluice.knowledge.embedding.Scripts.latin(heldOut.get(i).text()) ? en : zh).add(judged.get(i));
        }
        System.out.printf("    english %.3f (S->B %.3f), chinese %.3f (S->B %.3f)%n", IntentScores.of(en).priorityAccuracy(),
            IntentScores.of(en).sToB(), IntentScores.of(zh).priorityAccuracy(), IntentScores.of(zh).sToB());
        return all;
    }

    @Test
    void theTrainedModelMeetsTheTargetsOnHeldOutMessagesAndBeatsTheBaselines() throws Exception {
        IntentScores.Summary trained = measure(online(List.of(), model), model);
        IntentScores.Summary rules = measure(online(List.of(), null), null);
        KnnIntentClassifier sampleKnn = KnnIntentClassifier.build(BankingData.EMBEDDER,
            IntentExamples.read(getClass().getResourceAsStream("/sluice/sample/intent-examples.tsv"), "sample"),
            new KnnVote(5, 0.5));
        IntentScores.Summary knn = measure(online(List.of(sampleKnn), null), null);
        report("trained model", trained);
        report("rules only", rules);
        report("rules + sample kNN (before)", knn);

        assertThat(trained.priorityAccuracy()).isGreaterThanOrEqualTo(0.90);
        assertThat(trained.sToB()).isLessThanOrEqualTo(0.03);
        assertThat(trained.priorityAccuracy()).isGreaterThan(rules.priorityAccuracy()).isGreaterThan(knn.priorityAccuracy());
    }

    @Test
    void traditionalChineseAndCapitalisedEnglishClassifyLikeTheirPlainForms() {
        OnlineIntent online = online(List.of(), model);
        Map<String, String> variants = new HashMap<>();
        variants.put("我的信用卡被盜刷了", "我的信用卡被盗刷了");
        variants.put("轉賬顯示成功但對方沒收到", "转账显示成功但对方没收到");
        variants.put("取款機吞卡了", "取款机吞卡了");
        variants.put("MY CARD WAS DECLINED AT THE SUPERMARKET", "my card was declined at the supermarket");
        variants.put("I Lost My Debit Card", "i lost my debit card");
        variants.put("What Is Today's Dollar Exchange Rate", "what is today's dollar exchange rate");
        variants.forEach((variant, plain) -> {
            IntentResult a = online.classify(variant, IntentPath.CHAT);
            IntentResult b = online.classify(plain, IntentPath.CHAT);
            assertThat(a.code()).as(variant).isEqualTo(b.code());
            assertThat(a.priority()).as(variant).isEqualTo(b.priority());
        });
        assertThat(online.classify("我的信用卡被盜刷了", IntentPath.CHAT).priority()).isEqualTo(Priority.S);
    }

    @Test
    void theStoredFormAnswersExactlyLikeTheTrainedModel() {
        IntentModel back = new IntentModelCodec().decode(new IntentModelCodec().encode(model));
        float[] x = FEATURES.of("转账失败了");
        assertThat(back.probabilities(x)).containsExactly(model.probabilities(x));
        assertThat(back.heldOut()).isEqualTo(model.heldOut());
    }

    static void report(String name, IntentScores.Summary s) {
        System.out.printf("%-28s priority accuracy %.3f, intent accuracy %.3f, S->B %.3f, S P/R %.2f/%.2f, A P/R %.2f/%.2f,"
                + " B P/R %.2f/%.2f, confusion %s%n", name, s.priorityAccuracy(), s.intentAccuracy(), s.sToB(),
            s.perPriority().get("S").precision(), s.perPriority().get("S").recall(), s.perPriority().get("A").precision(),
            s.perPriority().get("A").recall(), s.perPriority().get("B").precision(), s.perPriority().get("B").recall(),
            java.util.Arrays.deepToString(s.confusion()));
        s.perIntent().entrySet().stream().sorted(Comparator.comparingDouble(e -> e.getValue().recall())).limit(3)
            .forEach(e -> System.out.printf("    weakest %s: P %.2f R %.2f%n", e.getKey(), e.getValue().precision(),
                e.getValue().recall()));
    }
}
