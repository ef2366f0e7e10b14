package io.sluice.api.chat;

import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.api.memory.FactSearch;
import io.sluice.api.session.SessionFact;

/**
 * Memory: the session's key facts that match this message (BM25 over the facts, {@link FactSearch}) go to
 * the answer — the LLM tiers' prompts and the F1 answer — so "you compensated me last time" finds what was
 * promised many turns ago, beyond the last turns. The facts are extracted and stored by {@link RecordStep}.
 */
public final class MemoryStep implements ChatStep {

    private final FactSearch search;
    private final int recall;
    private final Counter recalled;

    public MemoryStep(FactSearch search, int recall, MeterRegistry meters) {
        this.search = search;
        this.recall = recall;
        this.recalled = Counter.builder("sluice.chat.memory.recalled")
            .description("session facts matched to a message and given to its answer").register(meters);
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        List<SessionFact> facts = ctx.session() == null ? List.of() : ctx.session().facts();
        if (!facts.isEmpty()) {
            List<SessionFact> matched = search.search(facts, ctx.message(), recall).stream()
                .map(FactSearch.Match::fact).toList();
            ctx.recalledFacts(matched);
            recalled.increment(matched.size());
        }
        next.proceed(ctx);
    }
}
