package io.sluice.api.chat;

import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

import io.sluice.api.auth.ApiClient;
import io.sluice.api.admission.PriorityAdmission;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.Priority;
import io.sluice.api.session.SessionContext;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.tier.FidelityTier;

/**
 * One request travelling down the {@link ChatPipeline}: what came in, and what each step added.
 * Owned by one thread; steps read what earlier steps wrote.
 */
public final class ChatContext {

    private final UUID requestId = UUID.randomUUID();
    private final long startedNanos = System.nanoTime();
    private final ApiClient client;
    private final ChatRequest request;
    private final PriorityAdmission.QueueListener queueListener;

    private SessionContext session;
    private IntentResult intent;
    private Supplier<IntentResult> pendingIntent;
    private DegradationLevel level = DegradationLevel.L0;
    private LevelKnobs knobs;
    private FidelityTier tierCap = FidelityTier.F4;
    private String capReason = "";
    private long queueWaitMs;
    private boolean cached;
    private Double cacheSimilarity;
    private Answer answer;
    private String deferReason;
    private AnswerStream stream;
    private java.util.List<io.sluice.api.session.SessionFact> recalledFacts = java.util.List.of();
    private io.sluice.api.admission.WaitOffer.Choice offerChoice;
    private Boolean vip;
    private boolean moreDetail;
    private io.sluice.knowledge.chain.RetrievalResult retrieval;
    private Answer fastReference;
    private Staleness staleness;
    private boolean shadowCheck;

    public ChatContext(ApiClient client, ChatRequest request) {
        this(client, request, PriorityAdmission.QueueListener.NONE);
    }

    public ChatContext(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener queueListener) {
        this.client = Objects.requireNonNull(client, "client");
        this.request = Objects.requireNonNull(request, "request");
        this.queueListener = queueListener;
    }

    /** VIP: the client's tier, or the end user's own VIP attribute (set by the ingress). */
    public boolean vip() {
        return vip != null ? vip : client.vip();
    }

    public void vip(boolean endUserOrClientVip) {
        this.vip = endUserOrClientVip;
    }

    /** The end user as the buckets and the LLM-call counter know them: {@code clientId:userId}. */
    public String endUser() {
        return client.id() + ":" + request.userId();
    }

    public UUID requestId() {
        return requestId;
    }

    public ApiClient client() {
        return client;
    }

    public ChatRequest request() {
        return request;
    }

    /** The message as the customer sent it (what the LLM sees; never stored or logged like this). */
    public String message() {
        return request.message();
    }

    public PriorityAdmission.QueueListener queueListener() {
        return queueListener;
    }

    public long elapsedMs() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    public SessionContext session() {
        return session;
    }

    public void session(SessionContext session) {
        this.session = session;
    }

    /** The intent, classified now if the intent step left it to the first step that needs it. */
    public IntentResult intent() {
        if (intent == null && pendingIntent != null) {
            Supplier<IntentResult> classify = pendingIntent;
            pendingIntent = null;
            intent = classify.get();
        }
        return intent;
    }

    public void intent(IntentResult intent) {
        this.intent = intent;
        this.pendingIntent = null;
    }

    /**
     * Classifies when a later step first asks for the intent (or the priority): an exact cache hit brings
     * the intent its entry was stored with and never runs the classifier.
     */
    public void intentOnDemand(Supplier<IntentResult> classify) {
        this.intent = null;
        this.pendingIntent = classify;
    }

    /** Whether the intent is known without classifying (set, or already classified on demand). */
    public boolean intentKnown() {
        return intent != null;
    }

    public Priority priority() {
        IntentResult intent = intent();
        return intent == null ? Priority.B : intent.priority();
    }

    public DegradationLevel level() {
        return level;
    }

    public LevelKnobs knobs() {
        return knobs;
    }

    /** Sets the level in force for this request; its highest tier becomes the cap. */
    public void level(DegradationLevel level, LevelKnobs knobs) {
        this.level = level;
        this.knobs = knobs;
        capTier(knobs.highestTier(), "degradation level " + level);
    }

    public FidelityTier tierCap() {
        return tierCap;
    }

    public String capReason() {
        return capReason;
    }

    /** Lowers the best tier this request may get (never raises it). */
    public void capTier(FidelityTier cap, String reason) {
        if (cap.ordinal() > tierCap.ordinal()) {
            tierCap = cap;
            capReason = reason;
        }
    }

    /** Whether the answer may use the LLM at all (F2 or better allowed). */
    public boolean llmAllowed() {
        return tierCap.ordinal() <= FidelityTier.F2.ordinal();
    }

    public long queueWaitMs() {
        return queueWaitMs;
    }

    public void queueWaitMs(long queueWaitMs) {
        this.queueWaitMs = queueWaitMs;
    }

    public boolean cached() {
        return cached;
    }

    public Double cacheSimilarity() {
        return cacheSimilarity;
    }

    /** Marks the answer as served from the cache. */
    public void cachedAnswer(Answer answer, double similarity) {
        this.answer = answer;
        this.cached = true;
        this.cacheSimilarity = similarity;
    }

    public Answer answer() {
        return answer;
    }

    public void answer(Answer answer) {
        this.answer = answer;
    }

    /** The SSE sink of a streaming request (tokens as the LLM writes them), or null. */
    public AnswerStream stream() {
        return stream;
    }

    public void stream(AnswerStream stream) {
        this.stream = stream;
    }

    /** Asks the answering step for a deferred (F0) answer, because the LLM cannot be had now. */
    public void deferBecause(String reason) {
        if (this.deferReason == null) {    // the first reason stands (e.g. "more detail" over the level's)
            this.deferReason = reason;
        }
    }

    /** Why this request should be deferred, or null. */
    public String deferReason() {
        return deferReason;
    }

    /** The session's facts that match this message ({@link MemoryStep}), best first; empty if none. */
    public java.util.List<io.sluice.api.session.SessionFact> recalledFacts() {
        return recalledFacts;
    }

    public void recalledFacts(java.util.List<io.sluice.api.session.SessionFact> facts) {
        this.recalledFacts = java.util.List.copyOf(facts);
    }

    /** What the client chose when offered a fast answer while queued ({@link AdmissionStep}), or null. */
    public io.sluice.api.admission.WaitOffer.Choice offerChoice() {
        return offerChoice;
    }

    public void offerChoice(io.sluice.api.admission.WaitOffer.Choice choice) {
        this.offerChoice = choice;
    }

    /** A "more detail" re-ask: never served from the cache, answered at F4 or deferred to one. */
    public boolean moreDetail() {
        return moreDetail;
    }

    public void moreDetail(boolean moreDetail) {
        this.moreDetail = moreDetail;
    }

    /** What the knowledge chain found for this message (null: the answering step did not retrieve). */
    public io.sluice.knowledge.chain.RetrievalResult retrieval() {
        return retrieval;
    }

    public void retrieval(io.sluice.knowledge.chain.RetrievalResult retrieval) {
        this.retrieval = retrieval;
    }

    /** The FAQ (F1) answer an F2 answer polished, for the shadow check; null when F2 was not tried. */
    public Answer fastReference() {
        return fastReference;
    }

    public void fastReference(Answer reference) {
        this.fastReference = reference;
    }

    /** Whether an F2 answer will be checked against its FAQ answer on the way out (then it is not streamed). */
    public boolean shadowCheck() {
        return shadowCheck;
    }

    public void shadowCheck(boolean shadowCheck) {
        this.shadowCheck = shadowCheck;
    }

    /** Why the answer may be outdated (old passages, the static snapshot while the database is down), or null. */
    public Staleness staleness() {
        return staleness;
    }

    public void staleness(Staleness staleness) {
        this.staleness = staleness;
    }

    /**
     * The answer rests on information from {@code basedOn} that may be outdated.
     *
     * @param reason {@code age} (a source older than the configured age) or {@code database-unavailable}
     *               (answered from the local FAQ snapshot / index while the database cannot be reached)
     */
    public record Staleness(java.time.Instant basedOn, String reason) {
    }
}
