package io.sluice.api.chat;

import java.util.Objects;
import java.util.UUID;

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

    public ChatContext(ApiClient client, ChatRequest request) {
        this(client, request, PriorityAdmission.QueueListener.NONE);
    }

    public ChatContext(ApiClient client, ChatRequest request, PriorityAdmission.QueueListener queueListener) {
        this.client = Objects.requireNonNull(client, "client");
        this.request = Objects.requireNonNull(request, "request");
        this.queueListener = queueListener;
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

    public IntentResult intent() {
        return intent;
    }

    public void intent(IntentResult intent) {
        this.intent = intent;
    }

    public Priority priority() {
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
        this.deferReason = reason;
    }

    /** Why this request should be deferred, or null. */
    public String deferReason() {
        return deferReason;
    }
}
