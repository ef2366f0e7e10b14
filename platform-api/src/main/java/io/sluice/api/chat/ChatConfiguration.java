package io.sluice.api.chat;

import java.util.List;
import java.util.function.IntSupplier;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.admission.AdmissionProperties;
import io.sluice.api.admission.ClusterAdmissionProperties;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.admission.RedisClusterOrder;
import io.sluice.api.intent.Priority;
import io.sluice.api.ingress.GlobalLimiter;
import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.api.intent.IntentEnhancer;
import io.sluice.api.intent.IntentMetrics;
import io.sluice.api.intent.RuleIntentClassifier;
import io.sluice.api.masking.PiiMasker;
import io.sluice.api.session.SessionProperties;
import io.sluice.api.session.SessionStore;
import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.permit.ClusterPermits;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.chain.RetrievalPlan;

import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import tools.jackson.databind.ObjectMapper;

/** Wires the chat pipeline. {@link #chatPipeline} is the one place that shows the order of the steps. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ChatProperties.class, AdmissionProperties.class, ClusterAdmissionProperties.class,
    SessionProperties.class, FreshnessProperties.class, ShadowCheckProperties.class, FastOfferProperties.class,
    FaqMemoProperties.class})
public class ChatConfiguration {

    /**
     * The chain every message goes through, in order:
     * ingress → session → memory → intent → level → record (on the way out) → freshness (on the way out) → more detail
     * → cache → admission → shadow check (on the way out) → answer.
     */
    @Bean
    ChatPipeline chatPipeline(IngressStep ingress, SessionStep session, MemoryStep memory, IntentStep intent,
            LevelStep level, RecordStep record, FreshnessStep freshness, MoreDetailStep moreDetail, CacheStep cache,
            AdmissionStep admission, ShadowCheckStep shadow, TieredAnswerStep answer) {
        return new ChatPipeline(List.of(ingress, session, memory, intent, level, record, freshness, moreDetail,
            cache, admission, shadow, answer));
    }

    @Bean
    MemoryStep memoryStep(SessionProperties properties, MeterRegistry meters) {
        return new MemoryStep(new io.sluice.api.memory.FactSearch(), properties.recallFacts(), meters);
    }

    /** Old sources, or the local snapshot while the database is down: the answer says how old it is. */
    @Bean
    FreshnessStep freshnessStep(FreshnessProperties properties, ObjectProvider<FaqSnapshotService> snapshots,
            DatabaseStatus database, MeterRegistry meters) {
        FaqSnapshotService service = snapshots.getIfAvailable();
        return new FreshnessStep(properties, service == null ? null : service::current, database, meters,
            java.time.Clock.systemUTC());
    }

    @Bean(destroyMethod = "close")
    DatabaseStatus chatDatabaseStatus(ObjectProvider<DataSource> dataSource, FreshnessProperties properties,
            MeterRegistry meters) {
        DataSource ds = dataSource.getIfUnique();
        return ds == null ? DatabaseStatus.UP : new DatabaseStatus(ds).start(properties.probeInterval().toMillis(), meters);
    }

    /** F1 answers kept per question, stale with any knowledge change this instance sees (docs/chat.md). */
    @Bean
    FaqAnswerMemo faqAnswerMemo(FaqMemoProperties properties, ObjectProvider<FaqSnapshotService> snapshots,
            ObjectProvider<LuceneIndex> index, MeterRegistry meters) {
        FaqSnapshotService service = snapshots.getIfAvailable();
        LuceneIndex lucene = index.getIfUnique();
        return new FaqAnswerMemo(properties.size(), properties.ttl(),
            service == null ? () -> 0 : () -> service.current().version(), lucene == null ? () -> 0 : lucene::generation)
            .bindTo(meters);
    }

    /** "More detail": past the cache, at F4 or deferred to a full answer. */
    @Bean
    MoreDetailStep moreDetailStep(LlmAccess llm, MeterRegistry meters) {
        return new MoreDetailStep(llm, meters);
    }

    /** F2's polish checked against its FAQ answer: a contradiction serves the FAQ answer as F1. */
    @Bean
    ShadowCheckStep shadowCheckStep(ShadowCheckProperties properties, ObjectProvider<FaqSnapshotService> snapshots,
            ObjectProvider<Embedder> embedder, RetrievalPlan defaultRetrievalPlan,
            io.sluice.semantics.relevance.RelevanceModel relevance, MeterRegistry meters) {
        FaqSnapshotService service = snapshots.getIfAvailable();
        Embedder e = embedder.getIfAvailable();
        ShadowCheck.EntryMatcher entries = service == null || e == null ? ShadowCheck.EntryMatcher.NONE
            : ShadowCheck.snapshotMatcher(text -> service.match(service.current(), text, e.embed(text), 3, null,
                java.time.Instant.now()), relevance.apply(defaultRetrievalPlan).minFaqScore(), properties.entryMargin());
        return new ShadowCheckStep(new ShadowCheck(new io.sluice.semantics.pairs.QuestionAnalyzer(), entries),
            properties.enabled(), meters);
    }

    @Bean
    ChatService chatService(ChatPipeline pipeline, PiiMasker masker) {
        return new ChatService(pipeline, masker);
    }

    @Bean
    IngressStep ingressStep(UserTokenBucket buckets, GlobalLimiter global,
            ObjectProvider<io.sluice.api.ingress.EndUserVip> endUserVip) {
        return new IngressStep(buckets, global, endUserVip.getIfAvailable());
    }

    @Bean
    SessionStep sessionStep(SessionStore sessions) {
        return new SessionStep(sessions);
    }

    @Bean
    IntentStep intentStep(RuleIntentClassifier rules, ObjectProvider<IntentEnhancer> enhancers, ChatProperties properties,
            MeterRegistry meters, ObjectProvider<io.sluice.api.intent.OnlineIntent> online) {
        // the trained model when io.sluice.api.intent.IntentModelConfiguration is present; else the rules and
        // the enhancers, kNN before the LLM (@Order on the enhancer beans, io.sluice.api.intent.IntentConfiguration)
        io.sluice.api.intent.OnlineIntent intent = online.getIfAvailable();
        return intent != null ? new IntentStep(intent) : new IntentStep(rules, enhancers.orderedStream().toList(),
            properties.intentConfidentAbove(), new IntentMetrics(meters));
    }

    @Bean
    LevelStep levelStep(DegradationControl degradation) {
        return new LevelStep(degradation);
    }

    @Bean
    RecordStep recordStep(ConversationStore conversations, SessionStore sessions, PiiMasker masker) {
        return new RecordStep(conversations, sessions, masker, new io.sluice.api.memory.FactExtractor());
    }

    @Bean
    CacheStep cacheStep(ObjectProvider<SemanticCache> cache) {
        return new CacheStep(cache);
    }

    @Bean
    AdmissionStep admissionStep(PriorityAdmission admission, LlmAccess llm, FastOffers offers) {
        return new AdmissionStep(admission, llm, offers);
    }

    /** Fast-mode offers to streams whose predicted wait is long; choices reach any instance (Redis topic). */
    @Bean
    FastOffers fastOffers(FastOfferProperties properties, ChatProperties chat, MeterRegistry meters,
            RedissonClient redisson, SessionProperties sessions) {
        return new FastOffers(properties, chat, meters, redisson, sessions.keyPrefix() + "offers");
    }

    @Bean
    TieredAnswerStep tieredAnswerStep(AnsweringStep faq, ObjectProvider<PassageRetriever> retriever, LlmAccess llm,
            LoadMonitor load, ChatProperties properties, ObjectProvider<DeferredAnswers> deferred) {
        return new TieredAnswerStep(faq, retriever.getIfAvailable(() -> PassageRetriever.NONE), llm, load, properties,
            deferred.getIfAvailable());
    }

    /** The knowledge chain with the configured plan; top-k comes from the degradation level per request. */
    @Bean
    PassageRetriever passageRetriever(RetrievalChain chain, RetrievalPlan defaultRetrievalPlan,
            io.sluice.semantics.relevance.RelevanceModel relevance) {
        // the relevance bars in service: below them a tier hands over, and finally nothing is found
        return (question, topK) -> chain.retrieve(question, relevance.apply(defaultRetrievalPlan.withTopK(topK)));
    }

    /**
     * Runs each SSE stream on a virtual thread of its own: a stream waiting for admission or for the
     * provider's next token holds no platform thread, so open streams are bounded by
     * {@code sluice.chat.stream-workers} (a safety cap, more: 429), by admission and by the permits, never by
     * a pool of threads.
     */
    @Bean(destroyMethod = "close")
    ChatStreamWorkers chatStreamWorkers(ChatProperties properties, MeterRegistry meters) {
        return new ChatStreamWorkers(properties.streamWorkers(), meters);
    }

    @Bean(destroyMethod = "shutdownNow")
    java.util.concurrent.ScheduledExecutorService chatStreamHeartbeats() {
        return java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sluice-chat-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Bean
    LlmAccess llmAccess(ObjectProvider<LlmGateway> gateway, ObjectProvider<io.sluice.api.ingress.UserLlmCalls> calls) {
        return new LlmAccess(gateway, calls.getIfAvailable());
    }

    @Bean
    PiiMasker piiMasker() {
        return new PiiMasker();
    }

    @Bean
    RuleIntentClassifier ruleIntentClassifier() {
        return new RuleIntentClassifier();
    }

    /** Ordered across instances in Redis unless {@code sluice.chat.admission.cluster.enabled} is false. */
    @Bean
    PriorityAdmission priorityAdmission(AdmissionProperties properties, ClusterAdmissionProperties cluster,
            RedissonClient redisson, ClusterPermits permits, MeterRegistry meters) {
        PriorityAdmission admission;
        if (!cluster.enabled()) {
            admission = new PriorityAdmission(properties);
        } else {
            IntSupplier capacity = cluster.capacity() > 0 ? cluster::capacity : () -> permits.size(Lane.INTERACTIVE.key());
            admission = new PriorityAdmission(properties,
                new RedisClusterOrder(redisson, cluster, capacity, properties.capacity(), meters));
        }
        for (Priority priority : Priority.values()) {
            Gauge.builder("sluice.chat.admission.waiting", admission, a -> a.waiting(priority)).tag("priority", priority.name())
                .description("requests waiting for an LLM answer slot on this instance, by class").register(meters);
        }
        return admission;
    }

    @Bean
    SessionStore sessionStore(RedissonClient redisson, JdbcClient jdbc, ObjectMapper json, SessionProperties properties,
            MeterRegistry meters) {
        return new SessionStore(redisson, jdbc, json, properties, meters);
    }

    /** LLM answer latencies and failures over the last 30 s (adaptive limiter, degradation level). */
    @Bean
    LoadMonitor loadMonitor(ChatProperties properties) {
        return new LoadMonitor(2048, properties.loadWindow());
    }

    @Bean
    ChatSignals chatSignals(LoadMonitor load, PriorityAdmission admission, ClusterPermits permits) {
        return new ChatSignals(load, admission, permits);
    }
}
