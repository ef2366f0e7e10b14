package io.sluice.api.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.sluice.api.ingress.LoadMonitor;
import io.sluice.api.session.Turn;
import io.sluice.governance.degradation.LevelKnobs;
import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.governance.gateway.LlmParameters;
import io.sluice.governance.gateway.LlmRequest;
import io.sluice.governance.gateway.LlmStream;
import io.sluice.governance.gateway.LlmStreamListener;
import io.sluice.governance.gateway.RequestType;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.answer.AnswerLanguage;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalResult;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answering: the best tier the request may have (its cap: level, admission) that the platform can
 * give now, stepping down one tier whenever the gateway says {@code Saturated} or {@code Degraded},
 * all inside one answer budget; never an exception to the customer.
 * <ul>
 *   <li>F4 full — vector retrieval, the level's top-k passages, full prompt with history, the level's
 *       model route and max_tokens (interactive lane).</li>
 *   <li>F3 lean — BM25 passages when the vector tiers found nothing, else fewer of the vector hits;
 *       trimmed passages and prompt, fewer history turns, smaller max_tokens.</li>
 *   <li>F2 fast — the FAQ answer polished by the light model, short max_tokens.</li>
 *   <li>F1 faq — the FAQ / extractive answer ({@link AnsweringStep}), no LLM: always there.</li>
 *   <li>F0 deferred — when an earlier step asked for it ({@link ChatContext#deferReason()}): the question
 *       goes to the work queue and the customer gets a ticket.</li>
 * </ul>
 * Streaming requests ({@link ChatContext#stream()}) get the same tiers through {@code LlmGateway.stream}:
 * tokens flow out as they come; a disconnect (the worker is interrupted) cancels the gateway stream,
 * which frees its permit. LLM latency and failures feed the {@link LoadMonitor}.
 */
public final class TieredAnswerStep implements ChatStep {

    private static final Logger log = LoggerFactory.getLogger(TieredAnswerStep.class);

    // the one grounded prompt, shared with the deferred (F0) answers of the batch drain
    static final String FULL_SYSTEM_PROMPT = io.sluice.knowledge.answer.GroundedPrompt.FULL_SYSTEM_PROMPT;

    /** Added to the F4 prompt of a "more detail" re-ask. */
    static final String MORE_DETAIL = "The customer found an earlier answer too brief and asked for more detail: "
        + "answer fully, with the conditions, steps and exceptions the passages give.";

    static final String LEAN_SYSTEM_PROMPT = """
        Customer-service assistant. Answer briefly, in the customer's language, only from these passages; if they
        do not cover it, say so:
        %s""";

    static final String FAST_SYSTEM_PROMPT = """
        You are a customer-service assistant. Answer the customer's last message using only the reference
        answer below; keep it short and polite and reply in the customer's language. If the reference does
        not cover the question, say so and suggest contacting a human agent.
        Reference answer: %s""";

    static final String DEFERRED_TEXT = "您的问题已受理，我们会尽快给出详细答复，可凭编号 %s 查询结果。"
        + " (Your question has been accepted; a detailed answer will follow. Ticket %s, status at %s.)";

    private final AnsweringStep faq;
    private final PassageRetriever retriever;
    private final LlmAccess llm;
    private final LoadMonitor load;
    private final ChatProperties properties;
    private final DeferredAnswers deferred;

    public TieredAnswerStep(AnsweringStep faq, PassageRetriever retriever, LlmAccess llm, LoadMonitor load,
            ChatProperties properties, DeferredAnswers deferred) {
        this.faq = faq;
        this.retriever = retriever == null ? PassageRetriever.NONE : retriever;
        this.llm = llm;
        this.load = load;
        this.properties = properties;
        this.deferred = deferred;
    }

    public TieredAnswerStep(AnsweringStep faq, LlmAccess llm, LoadMonitor load, ChatProperties properties) {
        this(faq, PassageRetriever.NONE, llm, load, properties, null);
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        ctx.answer(withMemory(ctx, answer(ctx)));
        next.proceed(ctx);
    }

    static final String MEMORY_PROMPT = "\nKnown from earlier in this conversation (use it where it matters, e.g. what was"
        + " promised; never contradict it):\n%s";

    static final String MEMORY_NOTE = "\n\n此前在本次会话中记录 (noted earlier in this conversation): %s";

    /** The session facts that match this message ({@link MemoryStep}), as a block of the system prompt. */
    static String memory(ChatContext ctx) {
        if (ctx.recalledFacts().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (io.sluice.api.session.SessionFact fact : ctx.recalledFacts()) {
            sb.append("- ").append(fact.kind()).append(": ").append(fact.text()).append('\n');
        }
        return MEMORY_PROMPT.formatted(sb.toString().strip());
    }

    /** F1 has no LLM to weave the facts in: the matching ones are named after the FAQ answer. */
    static Answer withMemory(ChatContext ctx, Answer answer) {
        if (answer.tier() != FidelityTier.F1 || ctx.recalledFacts().isEmpty()) {
            return answer;
        }
        String facts = String.join("；", ctx.recalledFacts().stream().map(io.sluice.api.session.SessionFact::text).toList());
        return new Answer(answer.text() + MEMORY_NOTE.formatted(facts), answer.tier(), answer.sources(), answer.ticket());
    }

    private Answer answer(ChatContext ctx) {
        if (ctx.deferReason() != null && deferred != null) {
            Optional<Answer> ticket = defer(ctx);
            if (ticket.isPresent()) {
                return ticket.get();
            }
        }
        Optional<LlmGateway> gateway = llm.usable(ctx);   // bound to the end user's LLM-call limit
        if (!ctx.llmAllowed() || gateway.isEmpty()) {
            return faq.answer(ctx.message(), null);
        }
        long deadline = System.nanoTime() + properties.answerBudget().toNanos();
        LevelKnobs knobs = ctx.knobs();
        RetrievalResult retrieved = null;
        Answer faqAnswer = null;
        FidelityTier tier = ctx.tierCap();
        while (tier.ordinal() <= FidelityTier.F2.ordinal()) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            if (left.compareTo(properties.minCallBudget()) < 0) {
                ctx.capTier(FidelityTier.F1, "answer budget spent");
                break;
            }
            Attempt attempt = null;
            if (tier == FidelityTier.F4 || tier == FidelityTier.F3) {
                if (retrieved == null) {
                    retrieved = retriever.retrieve(ctx.message(), knobs == null ? 5 : knobs.topK());
                    ctx.retrieval(retrieved);
                }
                List<Passage> documents = documents(retrieved);
                FidelityTier documentTier = documentTier(tier, retrieved);
                if (documentTier == FidelityTier.F4) {
                    attempt = full(ctx, documents, knobs, left);
                } else if (documentTier == FidelityTier.F3) {
                    tier = FidelityTier.F3;                 // no vector hits: BM25 passages, lean prompt
                    attempt = lean(ctx, documents, knobs, left);
                } else {
                    tier = FidelityTier.F2;                 // nothing retrieved: the FAQ answer, polished
                    ctx.capTier(FidelityTier.F2, "no document passages (" + retrieved.path() + ")");
                }
            }
            if (tier == FidelityTier.F2) {
                faqAnswer = faqAnswer != null ? faqAnswer : faq.answer(ctx.message(), retrieved);
                if (faqAnswer.sources().isEmpty()) {          // nothing relevant anywhere: the honest no-answer
                    break;
                }
                ctx.fastReference(faqAnswer);                 // what the shadow check compares the polish with
                attempt = fast(ctx, faqAnswer, knobs, left);
            }
            Optional<Answer> answered = run(ctx, gateway.get(), attempt);
            if (answered.isPresent()) {
                return answered.get();
            }
            tier = FidelityTier.values()[tier.ordinal() + 1];
        }
        return faqAnswer != null ? faqAnswer : faq.answer(ctx.message(), retrieved);
    }

    /**
     * The passages the document tiers (F4, F3) may answer from: what the chain found above the relevance
     * bars in service, unless only the FAQ snapshot had something (then F2 polishes the FAQ answer).
     */
    static List<Passage> documents(RetrievalResult retrieved) {
        return retrieved.found() && !"faq-snapshot".equals(retrieved.answeredBy()) ? retrieved.passages() : List.of();
    }

    /** F4 with vector hits, F3 with other document passages, else F2 — starting from {@code tier}. */
    static FidelityTier documentTier(FidelityTier tier, RetrievalResult retrieved) {
        boolean vector = retrieved.answeredBy() != null && retrieved.answeredBy().startsWith("vector");
        if (tier == FidelityTier.F4 && vector) {
            return FidelityTier.F4;
        }
        return documents(retrieved).isEmpty() ? FidelityTier.F2 : FidelityTier.F3;
    }

    /**
     * The tier the chat answers at when no LLM call fails: the same decisions as {@link #apply}, for
     * previews (hit testing) that must show what the chat does.
     *
     * @param cap the highest tier the level allows; {@code retrieved} the chain result with the level's top-k
     */
    public static FidelityTier plannedTier(FidelityTier cap, boolean llmUsable, RetrievalResult retrieved, Answer faqAnswer) {
        if (!llmUsable || cap.ordinal() > FidelityTier.F2.ordinal()) {
            return FidelityTier.F1;
        }
        FidelityTier tier = cap == FidelityTier.F4 || cap == FidelityTier.F3 ? documentTier(cap, retrieved) : cap;
        if (tier == FidelityTier.F2 && faqAnswer.sources().isEmpty()) {
            return FidelityTier.F1;
        }
        return tier;
    }

    /** One LLM tier: its tier, request and the sources it will name. */
    private record Attempt(FidelityTier tier, LlmRequest request, List<ChatResponse.Source> sources) {
    }

    private Attempt full(ChatContext ctx, List<Passage> passages, LevelKnobs knobs, Duration budget) {
        int k = knobs == null ? passages.size() : Math.min(knobs.topK(), passages.size());
        List<Passage> used = passages.subList(0, k);
        List<LlmMessage> messages = new ArrayList<>();
        messages.add(LlmMessage.system(FULL_SYSTEM_PROMPT.formatted(numbered(used, properties.fullPassageChars()))
            + (ctx.moreDetail() ? "\n" + MORE_DETAIL : "") + language(ctx) + memory(ctx)));
        addHistory(ctx, messages, properties.historyTurns());
        messages.add(LlmMessage.user(ctx.message()));
        return new Attempt(FidelityTier.F4, request(knobs, knobs == null ? null : knobs.modelRoute(), messages,
            knobs == null ? 1024 : knobs.maxTokens(), budget), sources(used));
    }

    private Attempt lean(ChatContext ctx, List<Passage> passages, LevelKnobs knobs, Duration budget) {
        int k = Math.min(properties.leanPassages(), passages.size());
        if (knobs != null) {
            k = Math.min(k, knobs.topK());
        }
        List<Passage> used = passages.subList(0, k);
        List<LlmMessage> messages = new ArrayList<>();
        messages.add(LlmMessage.system(LEAN_SYSTEM_PROMPT.formatted(numbered(used, properties.leanPassageChars()))
            + language(ctx) + memory(ctx)));
        addHistory(ctx, messages, properties.historyTurns() / 3);
        messages.add(LlmMessage.user(ctx.message()));
        int maxTokens = knobs == null ? properties.leanMaxTokens() : Math.min(properties.leanMaxTokens(), knobs.maxTokens());
        return new Attempt(FidelityTier.F3, request(knobs, knobs == null ? null : knobs.modelRoute(), messages, maxTokens, budget),
            sources(used));
    }

    private Attempt fast(ChatContext ctx, Answer faqAnswer, LevelKnobs knobs, Duration budget) {
        List<LlmMessage> messages = new ArrayList<>();
        messages.add(LlmMessage.system(FAST_SYSTEM_PROMPT.formatted(faqAnswer.text()) + language(ctx) + memory(ctx)));
        addHistory(ctx, messages, properties.historyTurns());
        messages.add(LlmMessage.user(ctx.message()));
        int maxTokens = knobs == null ? properties.fastMaxTokens() : Math.min(properties.fastMaxTokens(), knobs.maxTokens());
        // blank fast-route = the level's model route (light at L2), not the lane default (primary)
        String route = properties.fastRoute() != null && !properties.fastRoute().isBlank() ? properties.fastRoute()
            : knobs == null ? null : knobs.modelRoute();
        return new Attempt(FidelityTier.F2, request(knobs, route, messages, maxTokens, budget), faqAnswer.sources());
    }

    /** Which language to answer in, said explicitly (the question's script decides). */
    static String language(ChatContext ctx) {
        return "\n" + AnswerLanguage.of(ctx.message()).instruction();
    }

    /** One interactive call with the level's temperature / top_p (the one level→knobs map decides them). */
    private static LlmRequest request(LevelKnobs knobs, String route, List<LlmMessage> messages, int maxTokens,
            Duration budget) {
        LlmParameters sampling = knobs == null ? LlmParameters.NONE : knobs.parameters(Lane.INTERACTIVE, LlmParameters.NONE);
        return new LlmRequest(Lane.INTERACTIVE, route, messages, maxTokens, budget, null, sampling, RequestType.CHAT_ANSWER);
    }

    private static void addHistory(ChatContext ctx, List<LlmMessage> messages, int turns) {
        List<Turn> recent = ctx.session() == null ? List.of() : ctx.session().recentTurns();
        for (Turn turn : recent.subList(Math.max(0, recent.size() - turns), recent.size())) {
            messages.add(new LlmMessage("ASSISTANT".equals(turn.role()) ? LlmMessage.Role.ASSISTANT : LlmMessage.Role.USER,
                turn.content()));
        }
    }

    static String numbered(List<Passage> passages, int maxChars) {
        return io.sluice.knowledge.answer.GroundedPrompt.numbered(passages, maxChars);
    }

    static List<ChatResponse.Source> sources(List<Passage> passages) {
        return passages.stream().map(p -> p.isFaq()
                ? new ChatResponse.Source("faq", p.source().faqKey(), p.source().title(), (float) p.score())
                : new ChatResponse.Source("document", p.source().documentId(), p.source().title(), (float) p.score()))
            .toList();
    }

    /** Calls (or streams) one tier; empty = step down (the reason is on the context and in the load monitor). */
    private Optional<Answer> run(ChatContext ctx, LlmGateway gateway, Attempt attempt) {
        long started = System.nanoTime();
        LlmOutcome outcome;
        try {
            // F2 is short and checked against its FAQ answer before it goes out (ShadowCheckStep): never streamed
            outcome = ctx.stream() == null || attempt.tier() == FidelityTier.F2 && ctx.shadowCheck()
                ? gateway.call(attempt.request()) : stream(ctx, gateway, attempt);
        } catch (RuntimeException e) {
            if (!(e instanceof CancellationException)) {
                load.record((System.nanoTime() - started) / 1_000_000, true);
            }
            throw e;
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        if (outcome instanceof LlmOutcome.Answered answered) {
            load.record(ms, false);
            return Optional.of(new Answer(answered.text(), attempt.tier(), attempt.sources()));
        }
        FidelityTier lower = FidelityTier.values()[attempt.tier().ordinal() + 1];
        if (outcome instanceof LlmOutcome.Degraded degraded) {
            load.record(ms, true);
            ctx.capTier(lower, attempt.tier() + " degraded: " + degraded.reason());
        } else {
            ctx.capTier(lower, attempt.tier() + " saturated: " + ((LlmOutcome.Saturated) outcome).reason());
        }
        return Optional.empty();
    }

    /**
     * Streams one tier into the request's {@link AnswerStream}; blocks this (worker) thread until the
     * stream ends. Interrupted (client gone) or past the stream timeout: the gateway stream is cancelled.
     * A failure after tokens went out cannot step down any more: it surfaces as {@link StreamBrokenException}.
     */
    private LlmOutcome stream(ChatContext ctx, LlmGateway gateway, Attempt attempt) {
        AnswerStream sink = ctx.stream();
        CompletableFuture<LlmOutcome> end = new CompletableFuture<>();
        AtomicReference<LlmStream> running = new AtomicReference<>();
        LlmStream stream = gateway.stream(attempt.request(), new LlmStreamListener() {
            @Override
            public void onToken(String token) {
                try {
                    if (!sink.begun()) {
                        sink.begin(ctx, attempt.tier(), attempt.sources());
                    }
                    sink.token(token);
                } catch (RuntimeException e) {               // the client went away mid-stream
                    end.completeExceptionally(new CancellationException("client gone: " + e));
                    LlmStream s = running.get();
                    if (s != null) {
                        s.cancel();
                    }
                }
            }

            @Override
            public void onComplete(LlmOutcome.Answered answered) {
                end.complete(answered);
            }

            @Override
            public void onEnd(LlmOutcome outcome) {
                end.complete(outcome);
            }
        });
        running.set(stream);
        LlmOutcome outcome;
        try {
            outcome = end.get(properties.streamTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stream.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("client disconnected while streaming");
        } catch (ExecutionException e) {
            stream.cancel();
            throw e.getCause() instanceof CancellationException c ? c : new CancellationException(e.toString());
        } catch (TimeoutException e) {
            stream.cancel();
            outcome = new LlmOutcome.Degraded(LlmOutcome.Reason.TIMEOUT, "stream ran past the stream timeout");
        }
        if (!(outcome instanceof LlmOutcome.Answered) && sink.begun()) {
            load.record(0, true);
            throw new StreamBrokenException(attempt.tier() + " stream broke after its first tokens: " + describe(outcome));
        }
        return outcome;
    }

    private static String describe(LlmOutcome outcome) {
        return outcome instanceof LlmOutcome.Degraded d ? d.reason() + " " + d.detail()
            : outcome instanceof LlmOutcome.Saturated s ? "saturated " + s.reason() : "answered";
    }

    private Optional<Answer> defer(ChatContext ctx) {
        try {
            DeferredAnswers.Ticket ticket = deferred.defer(ctx);
            String text = DEFERRED_TEXT.formatted(ticket.id(), ticket.id(), ticket.statusUrl());
            return Optional.of(new Answer(text, FidelityTier.F0, List.of(), ticket));
        } catch (RuntimeException e) {
            log.warn("chat {}: could not defer ({}), answering at F1: {}", ctx.requestId(), ctx.deferReason(), e.toString());
            return Optional.empty();
        }
    }

    /** A streamed answer failed after its first tokens went out (the SSE controller sends an error event). */
    public static final class StreamBrokenException extends RuntimeException {
        public StreamBrokenException(String message) {
            super(message);
        }
    }
}
