package io.sluice.api.chat;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.sluice.governance.tier.FidelityTier;

/**
 * The answer, with the tier that produced it named honestly.
 *
 * @param answer           the text
 * @param tier             F4..F0
 * @param badge            the tier's honest label ("AI analysis", "fast answer", "automatic answer")
 * @param sources          where it came from
 * @param intent           what the message was classified as (e.g. {@code complaint})
 * @param priority         admission class S / A / B
 * @param cached           served from the semantic cache
 * @param similarity       the cache hit's similarity (cache hits only)
 * @param queueWaitMs      time spent waiting for admission
 * @param latencyMs        time from arrival to answer
 * @param requestId        this exchange (for feedback)
 * @param sessionId        the session (pass it back to continue)
 * @param degradationLevel the platform's level when this was answered (L0..L3)
 * @param ticket           a deferred (F0) answer's ticket (its task id)
 * @param statusUrl        where the deferred answer is fetched ({@code GET /api/v1/tasks/{ticket}})
 * @param freshness        present when the answer may be outdated: the date of the information it rests
 *                         on and why (the answer text carries the same notice)
 */
public record ChatResponse(
    String answer,
    FidelityTier tier,
    String badge,
    List<Source> sources,
    String intent,
    String priority,
    boolean cached,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double similarity,
    long queueWaitMs,
    long latencyMs,
    UUID requestId,
    UUID sessionId,
    String degradationLevel,
    @JsonInclude(JsonInclude.Include.NON_NULL) UUID ticket,
    @JsonInclude(JsonInclude.Include.NON_NULL) String statusUrl,
    @JsonInclude(JsonInclude.Include.NON_NULL) Freshness freshness) {

    /**
     * The answer may be outdated.
     *
     * @param basedOn       the date (UTC, ISO) of the oldest information the answer rests on
     * @param reason        {@code age} or {@code database-unavailable}
     * @param mayBeOutdated always true (present only then)
     */
    public record Freshness(String basedOn, String reason, boolean mayBeOutdated) {
    }

    /** Where an answer came from. */
    public record Source(String kind, String id, String title, Float score) {
    }

    static ChatResponse of(ChatContext ctx) {
        Answer answer = ctx.answer();
        return new ChatResponse(answer.text(), answer.tier(), answer.tier().badge(), answer.sources(),
            ctx.intent() == null ? null : ctx.intent().code(), ctx.priority().name(), ctx.cached(),
            ctx.cacheSimilarity(), ctx.queueWaitMs(), ctx.elapsedMs(), ctx.requestId(), ctx.session().id(),
            ctx.level().name(), answer.ticket() == null ? null : answer.ticket().id(),
            answer.ticket() == null ? null : answer.ticket().statusUrl(),
            ctx.staleness() == null ? null : new Freshness(FreshnessStep.date(ctx.staleness().basedOn()),
                ctx.staleness().reason(), true));
    }
}
