package io.sluice.api.chat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.tier.FidelityTier;
import io.sluice.knowledge.answer.AnswerLanguage;
import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalResult;
import io.sluice.knowledge.chain.TierAttempt;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqSnapshot;

/**
 * Freshness, on the way out: an answer whose sources are older than {@code sluice.chat.freshness.max-age}
 * (a document's ingestion, a FAQ entry's last update), or that was answered from the local FAQ snapshot /
 * index while the database cannot be reached, says so — "based on information from &lt;date&gt;; may be
 * outdated" appended to the text in the answer's language, and {@code freshness} in the response. The date
 * is the oldest source's (for FAQ entries while the database is down: the snapshot's, the newest state it
 * can vouch for). Cache hits are left as they are (their passages' dates are not kept with them); F0
 * tickets and answers without sources (the honest no-answer) have nothing to date. Counter
 * {@code sluice.chat.freshness.notices{reason}}.
 */
public final class FreshnessStep implements ChatStep {

    static final String AGE = "age";
    static final String DATABASE = "database-unavailable";

    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final FreshnessProperties properties;
    private final Supplier<FaqSnapshot> snapshot;
    private final DatabaseStatus database;
    private final MeterRegistry meters;
    private final Clock clock;

    public FreshnessStep(FreshnessProperties properties, Supplier<FaqSnapshot> snapshot, DatabaseStatus database,
            MeterRegistry meters, Clock clock) {
        this.properties = properties;
        this.snapshot = snapshot == null ? () -> null : snapshot;
        this.database = database == null ? DatabaseStatus.UP : database;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        next.proceed(ctx);
        Answer answer = ctx.answer();
        if (!properties.enabled() || answer == null || ctx.cached() || answer.tier() == FidelityTier.F0
                || answer.sources().isEmpty()) {
            return;
        }
        FaqSnapshot faq = snapshot.get();
        boolean databaseDown = database.down() || databaseTierFailed(ctx.retrieval());
        Instant oldest = null;
        for (ChatResponse.Source source : answer.sources()) {
            Instant date = "faq".equals(source.kind()) ? faqDate(faq, source.id(), databaseDown, ctx.retrieval())
                : documentDate(ctx.retrieval(), source.id());
            if (date != null && (oldest == null || date.isBefore(oldest))) {
                oldest = date;
            }
        }
        if (oldest == null) {
            return;
        }
        String reason = databaseDown ? DATABASE
            : oldest.isBefore(clock.instant().minus(properties.maxAge())) ? AGE : null;
        if (reason == null) {
            return;
        }
        ctx.staleness(new ChatContext.Staleness(oldest, reason));
        ctx.answer(new Answer(answer.text() + notice(AnswerLanguage.of(ctx.message()), oldest), answer.tier(),
            answer.sources(), answer.ticket()));
        meters.counter("sluice.chat.freshness.notices", "reason", reason).increment();
    }

    /** The notice appended to the answer, in its language. */
    static String notice(AnswerLanguage language, Instant basedOn) {
        return notice(language, date(basedOn));
    }

    /** The same for a date already formatted ({@code yyyy-MM-dd}). */
    static String notice(AnswerLanguage language, String date) {
        return switch (language) {
            case CHINESE_SIMPLIFIED -> "\n（以上回答基于 " + date + " 的信息，可能已过时。）";
            case CHINESE_TRADITIONAL -> "\n（以上回答基於 " + date + " 的資訊，可能已過時。）";
            default -> "\n(Based on information from " + date + "; may be outdated.)";
        };
    }

    static String date(Instant instant) {
        return DATE.format(instant);
    }

    /**
     * A FAQ entry's date: its last update, else the snapshot's; while the database is down, the snapshot's
     * (nothing newer can be known) or the entry's update when that is older still.
     */
    private static Instant faqDate(FaqSnapshot faq, String key, boolean databaseDown, RetrievalResult retrieval) {
        Instant updated = null;
        if (faq != null) {
            for (FaqEntry e : faq.entries()) {
                if (e.key().equals(key)) {
                    updated = e.updatedAt();
                    break;
                }
            }
        }
        if (updated == null && retrieval != null) {
            for (Passage p : retrieval.passages()) {
                if (key.equals(p.source().faqKey()) && p.freshness() != null) {
                    updated = p.freshness().ingestedAt();
                    break;
                }
            }
        }
        Instant snapshotDate = faq == null ? null : faq.createdAt();
        if (databaseDown && snapshotDate != null) {
            return updated != null && updated.isBefore(snapshotDate) ? updated : snapshotDate;
        }
        return updated != null ? updated : snapshotDate;
    }

    private static Instant documentDate(RetrievalResult retrieval, String documentId) {
        if (retrieval == null) {
            return null;
        }
        Instant oldest = null;
        for (Passage p : retrieval.passages()) {
            if (documentId.equals(p.source().documentId()) && p.freshness() != null && p.freshness().ingestedAt() != null
                    && (oldest == null || p.freshness().ingestedAt().isBefore(oldest))) {
                oldest = p.freshness().ingestedAt();
            }
        }
        return oldest;
    }

    /** The chain's database tier (pgvector) could not be read for this very request. */
    static boolean databaseTierFailed(RetrievalResult retrieval) {
        if (retrieval == null) {
            return false;
        }
        for (TierAttempt a : retrieval.trace()) {
            if (a.tier().startsWith("vector:pgvector") && (a.outcome() == TierAttempt.Outcome.ERROR
                    || a.outcome() == TierAttempt.Outcome.TIMEOUT || a.outcome() == TierAttempt.Outcome.BREAKER_OPEN)) {
                return true;
            }
        }
        return false;
    }
}
