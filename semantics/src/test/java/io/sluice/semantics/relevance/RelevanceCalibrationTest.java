package io.sluice.semantics.relevance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.support.FaqTestBed;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.semantics.model.SemanticModelStore;
import io.sluice.semantics.model.SemanticModels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * On the team's own data sets (written for this, never copied): thresholds calibrated on the tune
 * queries and out-of-domain tune questions, figures reported on the held-out ones.
 */
class RelevanceCalibrationTest {

    @TempDir
    Path dir;

    static SemanticModels models() {
        return new SemanticModels(new SemanticModelStore(new JdbcTemplate(TestDatabase.get()),
            new DataSourceTransactionManager(TestDatabase.get())), null, "test:", Duration.ofSeconds(30),
            new SimpleMeterRegistry());
    }

    FaqQueryEvaluator.Measurement[] run(String set) throws Exception {
        try (FaqTestBed bed = new FaqTestBed(dir, FaqTestBed.entries(set + "/entries.jsonl"))) {
            RelevanceModel model = new RelevanceModel(models(), FaqTestBed.PLAN, FaqTestBed.JSON);
            FaqQueryEvaluator evaluator = new FaqQueryEvaluator(bed.finder, model, FaqTestBed.PLAN, FaqTestBed.JSON);
            List<LabelledQuery> tune = LabelledQuery.of(FaqTestBed.items(set + "/queries-tune.jsonl", "ood/ood-tune.jsonl"));
            List<LabelledQuery> held = LabelledQuery.of(FaqTestBed.items(set + "/queries-heldout.jsonl", "ood/ood-heldout.jsonl"));
            RelevanceThresholds configured = model.thresholds();
            RelevanceThresholds calibrated = new RelevanceCalibrator(bed.chain, bed.embedder, 0.01).calibrate(tune, configured);
            FaqQueryEvaluator.Measurement before = evaluator.measure(held, configured);
            FaqQueryEvaluator.Measurement after = evaluator.measure(held, calibrated);
            System.out.printf("%s: configured %s -> held-out %s%n  calibrated %s -> held-out %s%n  misses %s%n", set,
                configured, before.metrics(), calibrated, after.metrics(), after.misses());
            return new FaqQueryEvaluator.Measurement[] {before, after};
        }
    }

    @Test
    void englishFaqHeldOut() throws Exception {
        var m = run("faq-en");
        assertThat(m[1].hitAt1()).isGreaterThanOrEqualTo(m[0].hitAt1() - 0.01);
        assertThat(m[1].outOfDomainNoAnswer()).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void traditionalChineseBankFaqHeldOut() throws Exception {
        var m = run("faq-zht-bank");
        assertThat(m[1].hitAt1()).isGreaterThanOrEqualTo(m[0].hitAt1() - 0.01);
        assertThat(m[1].outOfDomainNoAnswer()).isGreaterThanOrEqualTo(0.9);
    }
}
