package io.sluice.app.warmup;

import java.util.List;

import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.embedding.Embedder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Warms the retrieval path once the platform is ready, off any request: the embedding models, then
 * each tier directly (not through the chain, so a slow first search trips no breaker and spends no
 * request's timeout). Cold, the first question after a start timed out in both the vector and the BM25
 * tier (class loading, the first Lucene searcher, the first pgvector plan) and took seconds.
 */
@Component
class RetrievalWarmUp {

    private static final Logger log = LoggerFactory.getLogger(RetrievalWarmUp.class);
    /** One question per embedding route (Chinese, English); the texts only need to look like questions. */
    private static final List<String> QUESTIONS = List.of("退款多久到账？", "How long does a refund take?");

    private final Embedder embedder;
    private final RetrievalChain chain;
    private final org.springframework.beans.factory.ObjectProvider<FaqAnswerFinder> faq;

    RetrievalWarmUp(Embedder embedder, RetrievalChain chain,
            org.springframework.beans.factory.ObjectProvider<FaqAnswerFinder> faq) {
        this.embedder = embedder;
        this.chain = chain;
        this.faq = faq;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warmUp() {
        Thread thread = new Thread(this::run, "sluice-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    int run() {
        long start = System.nanoTime();
        int searches = 0;
        for (String question : QUESTIONS) {
            float[] vector;
            try {
                vector = embedder.embed(question);
            } catch (RuntimeException e) {
                log.debug("warm-up: embedding failed: {}", e.toString());
                vector = null;
            }
            TierQuery query = new TierQuery(question, vector, SearchFilter.validNow());
            for (RetrievalTier tier : chain.tiers()) {
                try {
                    tier.search(query, 3);
                    searches++;
                } catch (Exception e) {
                    // a tier that is down now is the breaker's business once requests come
                    log.debug("warm-up: tier {} failed: {}", tier.name(), e.toString());
                }
            }
        }
        // the F1 ranking's answer vectors, in the background (a burst of cold F1 answers would otherwise queue them)
        faq.ifAvailable(FaqAnswerFinder::warmAnswers);
        log.debug("retrieval warmed up: {} searches in {} ms", searches, (System.nanoTime() - start) / 1_000_000);
        return searches;
    }
}
