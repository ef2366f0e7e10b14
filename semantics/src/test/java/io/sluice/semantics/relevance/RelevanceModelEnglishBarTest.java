package io.sluice.semantics.relevance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import io.sluice.knowledge.answer.RelevanceThresholds;
import io.sluice.knowledge.embedding.OnnxBgeEnEmbedder;
import io.sluice.knowledge.embedding.OnnxMiniLmEmbedder;
import io.sluice.semantics.model.ModelCodec;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.ObjectMapper;

/**
 * A stored relevance calibration records the English model its English bar is a cosine of: read with another
 * English model configured, that one bar is replaced by the configured bar (the other bars stay), so a MiniLM bar
 * never gates BGE-small-en cosines.
 */
class RelevanceModelEnglishBarTest {

    private final ObjectMapper json = new ObjectMapper();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anEnglishBarOfAnotherModelGivesWayToTheConfiguredOne() {
        String bge = OnnxBgeEnEmbedder.MODEL_ID;
        ModelCodec<RelevanceThresholds> codec = RelevanceModel.codec(json, bge, 0.65);
        // stored before the model was recorded: calibrated with MiniLM, the only English model then
        RelevanceThresholds legacy = codec.decode(bytes(
            "{\"vector\":0.543,\"englishVector\":0.326,\"bm25\":3.93,\"faq\":0.52}"));
        assertThat(legacy).isEqualTo(new RelevanceThresholds(0.543, 0.65, 3.93, 0.52));
        RelevanceThresholds own = codec.decode(bytes(
            "{\"vector\":0.5,\"englishVector\":0.7,\"bm25\":3.4,\"faq\":0.55,\"englishModel\":\"" + bge + "\"}"));
        assertThat(own.englishVector()).isEqualTo(0.7);

        ModelCodec<RelevanceThresholds> miniLm = RelevanceModel.codec(json, OnnxMiniLmEmbedder.MODEL_ID, 0.3);
        assertThat(miniLm.decode(bytes("{\"vector\":0.5,\"englishVector\":0.326,\"bm25\":3.0,\"faq\":0.5}"))
            .englishVector()).isEqualTo(0.326);
        assertThat(miniLm.decode(bytes(
            "{\"vector\":0.5,\"englishVector\":0.7,\"bm25\":3.0,\"faq\":0.5,\"englishModel\":\"" + bge + "\"}"))
            .englishVector()).isEqualTo(0.3);
    }

    @Test
    void encodingRecordsTheEnglishModel() {
        RelevanceModel model = new RelevanceModel(RelevanceCalibrationTest.models(),
            io.sluice.knowledge.support.FaqTestBed.PLAN, json, OnnxBgeEnEmbedder.MODEL_ID + "+nfkc-cf-hans");
        String stored = new String(model.encode(new RelevanceThresholds(0.5, 0.7, 3.0, 0.5)), StandardCharsets.UTF_8);
        assertThat(json.readTree(stored).get("englishModel").asString()).isEqualTo(OnnxBgeEnEmbedder.MODEL_ID);
        assertThat(RelevanceModel.codec(json, OnnxBgeEnEmbedder.MODEL_ID, 0.65).decode(bytes(stored)).englishVector())
            .isEqualTo(0.7);
    }
}
