package io.sluice.api.chat;

import java.util.List;

import io.sluice.api.masking.PiiMasker;
import io.sluice.api.memory.FactExtractor;
import io.sluice.api.session.SessionFact;
import io.sluice.api.session.SessionStore;
import io.sluice.api.session.Turn;
import io.sluice.governance.degradation.DegradationLevel;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.web.text.SafeText;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * Record: on the way back out, stores the exchange masked (PostgreSQL, then the session's Redis
 * turns) and logs one masked line (at DEBUG for the fast path, {@link #quiet}). A request that failed below stores nothing; a database outage
 * while storing is logged and the answer still goes out.
 */
public final class RecordStep implements ChatStep {

    private static final Logger log = LoggerFactory.getLogger("sluice.chat");
    private static final int LOGGED_CHARS = 80;

    private final ConversationStore conversations;
    private final SessionStore sessions;
    private final PiiMasker masker;
    private final FactExtractor facts;

    public RecordStep(ConversationStore conversations, SessionStore sessions, PiiMasker masker) {
        this(conversations, sessions, masker, new FactExtractor());
    }

    public RecordStep(ConversationStore conversations, SessionStore sessions, PiiMasker masker, FactExtractor facts) {
        this.conversations = conversations;
        this.sessions = sessions;
        this.masker = masker;
        this.facts = facts;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        next.proceed(ctx);
        Answer answer = ctx.answer();
        if (answer == null) {
            return;
        }
        String question = masker.mask(ctx.message());
        String reply = masker.mask(answer.text());
        long latencyMs = ctx.elapsedMs();
        long now = System.currentTimeMillis();
        // the session's memory beyond its last turns: key facts of this exchange, by rules, from the masked texts
        List<SessionFact> learned = facts.extract(question, answer.tier() == FidelityTier.F0 ? null : reply,
            ctx.intent() == null ? null : ctx.intent().code(), ctx.session().facts(), now);
        boolean recorded = false;
        try {
            conversations.recordExchange(ctx, question, reply, latencyMs);
            recorded = true;
        } catch (DataAccessException | TransactionException e) {
            // the customer has an answer already: a database outage loses this record, not the answer
            // (found by the load harness's postgres-restart scenario: it was a 500)
            log.warn("chat {}: exchange not recorded, database unavailable: {}", ctx.requestId(), e.getMessage());
        }
        if (recorded) {
            sessions.recordFacts(ctx.session().id(), learned);
        }
        sessions.append(ctx.session().id(), ctx.client().id(), ctx.request().userId(),
            List.of(new Turn("USER", question, now), new Turn("ASSISTANT", reply, now)), learned);
        Level level = quiet(ctx, answer) ? Level.DEBUG : Level.INFO;
        if (log.isEnabledForLevel(level)) {
            log.atLevel(level).log("chat {} client={} session={} intent={} priority={} level={} tier={} cached={} waitMs={} ms={}{} msg=\"{}\"",
                ctx.requestId(), ctx.client().id(), ctx.session().id(), ctx.intent() == null ? "-" : ctx.intent().code(),
                ctx.priority(), ctx.level(), answer.tier(), ctx.cached(), ctx.queueWaitMs(), latencyMs,
                ctx.capReason().isEmpty() ? "" : " cap=\"" + ctx.capReason() + "\"",
                SafeText.forLog(question.length() > LOGGED_CHARS ? question.substring(0, LOGGED_CHARS) + "…" : question));
        }
    }

    /**
     * The fast path, logged at DEBUG: answered from the cache or the FAQ tier at full service, without waiting and
     * without a cap. Thousands a second, each already a conversation record and counted; a line each cost a tenth
     * of such an answer's CPU. Everything an operator may act on (an LLM answer, a degraded level, a cap, a wait,
     * a deferral) stays at INFO.
     */
    static boolean quiet(ChatContext ctx, Answer answer) {
        return (ctx.cached() || answer.tier() == FidelityTier.F1)
            && (ctx.level() == null || ctx.level() == DegradationLevel.L0)
            && ctx.capReason().isEmpty() && ctx.queueWaitMs() == 0;
    }
}
