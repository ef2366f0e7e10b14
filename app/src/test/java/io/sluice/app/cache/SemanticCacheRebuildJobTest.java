package io.sluice.app.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.auth.ApiClient;
import io.sluice.api.auth.ApiKeys;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.cache.RedisSemanticCache;
import io.sluice.api.chat.Answer;
import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.ChatRequest;
import io.sluice.api.chat.ChatResponse;
import io.sluice.api.chat.SemanticCache;
import io.sluice.app.support.TestServices;
import io.sluice.batch.cache.SemanticCacheRebuild;
import io.sluice.batch.jobs.JobControl;
import io.sluice.batch.progress.JobProgress;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.mock.MockProvider;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.ObjectMapper;

/**
 * The semantic-cache-rebuild job in the whole application (real Redis cache, real PostgreSQL conversation
 * log, real knowledge ingestion): a frequent recent question is warmed from its stored F4 answer, an entry
 * whose source document was re-ingested and one whose FAQ entry was edited are dropped, an entry whose answer got negative feedback is dropped
 * (and not warmed back), an untouched entry stays; progress and metrics are recorded.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SemanticCacheRebuildJobTest {

    static final String RUN = UUID.randomUUID().toString();
    static final MockProvider MOCK = MockProvider.start(0);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        TestServices.isolated(registry, RUN);
        registry.add("sluice.llm.base-url", MOCK::baseUrl);
        registry.add("sluice.degradation.auto", () -> "false");
        registry.add("sluice.batch.jobs.semantic-cache-rebuild.enabled", () -> "false"); // launched by the test only
    }

    @AfterAll
    static void stopMock() {
        MOCK.close();
    }

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    RedisSemanticCache cache;

    @Autowired
    DegradationControl degradation;

    @Autowired
    IngestionService ingestion;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ObjectMapper json;

    @Autowired
    JobControl jobs;

    @Autowired
    JobRepository jobRepository;

    @Autowired
    MeterRegistry meters;

    ChatContext context(ApiClient client, String question) {
        ChatContext ctx = new ChatContext(client, new ChatRequest("u-" + UUID.randomUUID(), null, question));
        ctx.level(DegradationLevel.L0, degradation.knobs(DegradationLevel.L0));
        return ctx;
    }

    Optional<SemanticCache.Hit> lookup(ApiClient client, String question) {
        return cache.lookup(context(client, question));
    }

    /** Caches an answer the way the chat pipeline does after a fresh F4 answer. */
    void cached(ApiClient client, String question, String answer, List<ChatResponse.Source> sources) {
        ChatContext ctx = context(client, question);
        ctx.answer(new Answer(answer, FidelityTier.F4, sources));
        cache.offer(ctx);
    }

    /** One stored exchange of the conversation log, as the record step writes it. */
    void logged(ApiClient client, String question, String answer, String tier, boolean fromCache,
            List<ChatResponse.Source> sources, String feedback) {
        UUID conversation = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        jdbc.sql("INSERT INTO conversation (id, user_id, client_id) VALUES (?, ?, ?)")
            .params(conversation, "u-" + UUID.randomUUID(), client.id()).update();
        jdbc.sql("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)")
            .params(conversation, request, question).update();
        jdbc.sql("""
                INSERT INTO conversation_message (conversation_id, request_id, role, content, tier, cached, sources, feedback)
                VALUES (?, ?, 'ASSISTANT', ?, ?, ?, CAST(? AS jsonb), ?)""")
            .params(conversation, request, answer, tier, fromCache, json.writeValueAsString(sources), feedback).update();
    }

    void ingest(String id, String text) {
        ingestion.ingest(DocumentRequest.of(id, id + ".md", "text/markdown", text.getBytes(StandardCharsets.UTF_8)));
    }

    double counter(String name, String... tags) {
        var counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void theRebuildWarmsFrequentQuestionsAndDropsEntriesWithChangedSourcesOrNegativeFeedback() {
        ApiClient client = apiKeys.create("rebuild-" + RUN, ClientTier.STANDARD).client();
        String stable = "cache-rebuild-" + RUN + "-points";
        String changing = "cache-rebuild-" + RUN + "-returns";
        ingest(stable, "# 会员积分\n\n会员积分自获得之日起十二个月内有效，过期自动清零。");
        ingest(changing, "# 退货运费\n\n因质量问题退货，运费由卖家承担。");
        List<ChatResponse.Source> fromStable = List.of(new ChatResponse.Source("document", stable, "会员积分", 0.9f));
        List<ChatResponse.Source> fromChanging = List.of(new ChatResponse.Source("document", changing, "退货运费", 0.9f));

        // frequent question, answered fresh at F4 (three times) and not in the cache
        String frequent = "会员积分多久过期";
        String frequentAnswer = "会员积分自获得之日起十二个月内有效。[1]";
        for (int i = 0; i < 3; i++) {
            logged(client, frequent, frequentAnswer, "F4", false, fromStable, null);
        }
        // asked once only: not warmed
        String rare = "积分可以转给别人吗";
        logged(client, rare, "积分不能转让。[1]", "F4", false, fromStable, null);
        // cached, then its source document changes
        String changed = "退货运费谁来承担";
        cached(client, changed, "质量问题退货由卖家承担运费。[1]", fromChanging);
        // cached, and a customer said the answer did not help
        String disliked = "快递一般几天能送到";
        String dislikedAnswer = "快递一般三到五天送达。";
        cached(client, disliked, dislikedAnswer, fromStable);
        logged(client, disliked, dislikedAnswer, "F4", true, fromStable, "NOT_HELPFUL");
        logged(client, disliked, dislikedAnswer, "F4", true, fromStable, null);
        // cached from a FAQ entry that is then edited
        String faqKey = "rb-" + RUN.substring(0, 8);
        jdbc.sql("INSERT INTO faq_entry (external_id, question, answer) VALUES (?, '积分能兑换什么', '积分可兑换优惠券。')")
            .param(faqKey).update();
        String faqQuestion = "积分能兑换什么礼品";
        cached(client, faqQuestion, "积分可兑换优惠券。", List.of(new ChatResponse.Source("faq", faqKey, "积分能兑换什么", 0.95f)));
        // cached and untouched
        String kept = "怎么修改收货地址";
        cached(client, kept, "在订单详情页点击修改地址即可。", fromStable);

        assertThat(lookup(client, changed)).isPresent();
        assertThat(lookup(client, disliked)).isPresent();
        assertThat(lookup(client, frequent)).isEmpty();
        assertThat(lookup(client, faqQuestion)).isPresent();
        jdbc.sql("UPDATE faq_entry SET answer = '积分可兑换优惠券和礼品。', updated_at = clock_timestamp() WHERE external_id = ?")
            .param(faqKey).update();
        ingest(changing, "# 退货运费\n\n自2026年12月起，七天无理由退货的运费也由卖家承担。");

        double warmedBefore = counter("sluice.cache.rebuild.warmed");
        double sourceBefore = counter("sluice.cache.rebuild.dropped", "reason", "source_changed");
        double feedbackBefore = counter("sluice.cache.rebuild.dropped", "reason", "negative_feedback");
        long executionId = jobs.launch(SemanticCacheRebuild.JOB_NAME, Map.of()).getId();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> !jobRepository.getJobExecution(executionId).isRunning());
        assertThat(jobRepository.getJobExecution(executionId).getStatus()).isEqualTo(BatchStatus.COMPLETED);

        Optional<SemanticCache.Hit> warmed = lookup(client, frequent);
        assertThat(warmed).isPresent();
        assertThat(warmed.get().answer().text()).isEqualTo(frequentAnswer);
        assertThat(warmed.get().answer().tier()).isEqualTo(FidelityTier.F4);
        assertThat(warmed.get().answer().sources()).extracting(ChatResponse.Source::id).containsExactly(stable);
        assertThat(lookup(client, changed)).isEmpty();
        assertThat(lookup(client, faqQuestion)).isEmpty();
        jdbc.sql("DELETE FROM faq_entry WHERE external_id = ?").param(faqKey).update();
        assertThat(lookup(client, disliked)).isEmpty();
        assertThat(lookup(client, rare)).isEmpty();
        assertThat(lookup(client, kept)).isPresent();

        JobProgress progress = jobs.progress(executionId);
        assertThat(progress.total()).isGreaterThanOrEqualTo(5); // 4 entries checked + 1 question to warm, at least
        assertThat(progress.done()).isEqualTo(progress.total());
        assertThat(counter("sluice.cache.rebuild.warmed") - warmedBefore).isGreaterThanOrEqualTo(1);
        assertThat(counter("sluice.cache.rebuild.dropped", "reason", "source_changed") - sourceBefore).isGreaterThanOrEqualTo(2);
        assertThat(counter("sluice.cache.rebuild.dropped", "reason", "negative_feedback") - feedbackBefore)
            .isGreaterThanOrEqualTo(1);
    }
}
