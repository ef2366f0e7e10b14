package io.sluice.api.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.knowledge.embedding.Embedder;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The enhancer beans, their order, and the validated {@code sluice.chat.intent.*} settings. */
class IntentConfigurationTest {

    @Configuration(proxyBeanMethods = false)
    static class Parts {
        @Bean
        Embedder embedder() {
            return new Embedder() {
                @Override
                public int dimension() {
                    return 2;
                }

                @Override
                public String modelId() {
                    return "fake";
                }

                @Override
                public List<float[]> embedAll(List<String> texts) {
                    return texts.stream().map(t -> new float[] {1, 0}).toList();
                }
            };
        }

        @Bean
        MeterRegistry meters() {
            return new SimpleMeterRegistry();
        }
    }

    final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withUserConfiguration(Parts.class, IntentConfiguration.class);

    @Test
    void byDefaultTheKnnIsAskedBeforeTheLlmWhichIsEnabledForPlainChatOnly() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            List<IntentEnhancer> ordered = context.getBeanProvider(IntentEnhancer.class).orderedStream().toList();
            assertThat(ordered).extracting(IntentEnhancer::name).containsExactly("knn", "llm");
            IntentEnhancer llm = ordered.get(1);
            assertThat(llm.enabledFor(IntentPath.CHAT)).isTrue();
            assertThat(llm.enabledFor(IntentPath.STREAM)).isFalse();
            assertThat(llm.enabledFor(IntentPath.OPENAI)).isFalse();
            KnnIntentClassifier knn = context.getBean(KnnIntentClassifier.class);
            assertThat(knn.size()).isGreaterThanOrEqualTo(500);   // the shipped sample examples, embedded at start
        });
    }

    @Test
    void pathsAreConfigurable() {
        runner.withPropertyValues("sluice.chat.intent.llm.enabled-for=chat,stream").run(context -> {
            LlmIntentEnhancer llm = context.getBean(LlmIntentEnhancer.class);
            assertThat(llm.enabledFor(IntentPath.STREAM)).isTrue();
            assertThat(llm.enabledFor(IntentPath.OPENAI)).isFalse();
        });
    }

    /** Issue 18: the front door never classifies intent, so enabling the LLM for it is refused, not ignored. */
    @Test
    void enablingTheLlmForTheOpenAiFrontDoorStopsTheStartWithAClearMessage() {
        runner.withPropertyValues("sluice.chat.intent.llm.enabled-for=openai").run(context -> assertThat(context)
            .hasFailed().getFailure().rootCause()
            .hasMessageContaining("sluice.chat.intent.llm.enabled-for: 'openai' is not supported")
            .hasMessageContaining("does not classify intent"));
        runner.withPropertyValues("sluice.chat.intent.llm.enabled-for=chat,openai").run(context -> assertThat(context)
            .hasFailed());
    }

    @Test
    void theKnnCanBeSwitchedOff() {
        runner.withPropertyValues("sluice.chat.intent.knn.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(KnnIntentClassifier.class);
            assertThat(context).hasSingleBean(LlmIntentEnhancer.class);
        });
    }

    @Test
    void anEmbedderThatFailsAtStartLeavesTheRulesInChargeInsteadOfStoppingTheStart() {
        runner.withBean("failingEmbedder", Embedder.class, () -> new Embedder() {
            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public String modelId() {
                return "down";
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                throw new IllegalStateException("embedding service down");
            }
        }, definition -> definition.setPrimary(true)).run(context -> {
            assertThat(context).hasNotFailed();
            KnnIntentClassifier knn = context.getBean(KnnIntentClassifier.class);
            assertThat(knn.size()).isZero();
            assertThat(knn.refine("退货的运费谁来出", new IntentResult(Intent.RETURNS, 0.6, "rules", List.of()))).isEmpty();
        });
    }

    @Test
    void badSettingsStopTheStartWithAClearMessage() {
        runner.withPropertyValues("sluice.chat.intent.knn.k=0").run(context -> assertThat(context).hasFailed()
            .getFailure().rootCause().hasMessageContaining("knn.k"));
        runner.withPropertyValues("sluice.chat.intent.knn.min-similarity=2").run(context -> assertThat(context).hasFailed()
            .getFailure().rootCause().hasMessageContaining("knn.minSimilarity"));
        runner.withPropertyValues("sluice.chat.intent.llm.enabled-for=chat,telepathy").run(context -> assertThat(context)
            .hasFailed().getFailure().rootCause().hasMessageContaining("telepathy"));
        runner.withPropertyValues("sluice.chat.intent.knn.examples=classpath:no/such/examples.tsv").run(context ->
            assertThat(context).hasFailed().getFailure().hasMessageContaining("sluice.chat.intent.knn.examples"));
    }
}
