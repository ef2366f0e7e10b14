package io.sluice.knowledge.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.knowledge.answer.FaqAnswerFinder.Ranking;

import org.junit.jupiter.api.Test;

/** The score fusion of the F1 ranking, on its own. */
class FaqRankingFusionTest {

    @Test
    void questionToQuestionSimilarityWeighsAboveQuestionToAnswer() {
        for (Ranking r : new Ranking[] {Ranking.MAIN, Ranking.ENGLISH}) {
            // the same cosine on the entry's question beats it on the entry's answer
            assertThat(r.fuse(0.8, 0.0, 0.5, 0)).isGreaterThan(r.fuse(0.5, 0.0, 0.8, 0));
            assertThat(r.answerWeight()).isLessThan(1.0);
        }
    }

    @Test
    void anEntryTwoVariantsAgreeOnOutranksOneLuckyVariantOnTheEnglishRoute() {
        Ranking r = Ranking.ENGLISH;
        double agreed = r.fuse(0.70, 0.66, 0.4, 0);
        double lucky = r.fuse(0.74, 0.20, 0.4, 0);
        assertThat(agreed).isGreaterThan(lucky);
        // the main route does not count the second variant
        assertThat(Ranking.MAIN.fuse(0.70, 0.66, 0.4, 0)).isLessThan(Ranking.MAIN.fuse(0.74, 0.20, 0.4, 0));
    }

    @Test
    void theEnglishRouteRanksByTheWeightsOfItsModel() {
        java.util.function.Function<String, io.sluice.knowledge.embedding.Embedder> model = id ->
            new io.sluice.knowledge.embedding.Embedder() {
                @Override
                public int dimension() {
                    return 384;
                }

                @Override
                public String modelId() {
                    return id;
                }

                @Override
                public java.util.List<float[]> embedAll(java.util.List<String> texts) {
                    throw new UnsupportedOperationException();
                }
            };
        assertThat(Ranking.english(model.apply("bge-small-en-v1.5-q+nfkc-cf-hans"))).isEqualTo(Ranking.ENGLISH_BGE);
        assertThat(Ranking.english(model.apply("all-minilm-l6-v2-q+nfkc-cf-hans"))).isEqualTo(Ranking.ENGLISH);
        assertThat(Ranking.english(null)).isEqualTo(Ranking.ENGLISH);
        // BGE-small-en's cosines lie close together: no BM25 share, the second variant still counts
        assertThat(Ranking.ENGLISH_BGE.lexicalWeight()).isZero();
        assertThat(Ranking.ENGLISH_BGE.fuse(0.80, 0.78, 0.6, 0)).isGreaterThan(Ranking.ENGLISH_BGE.fuse(0.82, 0.60, 0.6, 0));
    }

    @Test
    void bm25BreaksNearTiesButNeverOutvotesAClearEmbeddingLead() {
        Ranking r = Ranking.MAIN;
        assertThat(r.fuse(0.700, 0, 0.5, 1.0)).isGreaterThan(r.fuse(0.710, 0, 0.5, 0.0));
        assertThat(r.fuse(0.70, 0, 0.5, 1.0)).isLessThan(r.fuse(0.80, 0, 0.5, 0.0));
    }

    @Test
    void aNegativeSecondCosineCountsAsNoSupportAndTheWeightsAreChecked() {
        assertThat(Ranking.ENGLISH.fuse(0.6, -0.3, 0.2, 0)).isEqualTo(Ranking.ENGLISH.fuse(0.6, 0, 0.2, 0));
        assertThatThrownBy(() -> new Ranking(-0.1, 0, 0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Ranking(0.5, 0, 0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Ranking.ANSWER_ONLY.fuse(0.6, 0.5, 0.4, 1.0)).isEqualTo(0.6 + 0.75 * 0.4);
    }
}
