package io.sluice.batch.jobs;

import java.util.List;
import java.util.Map;

import io.sluice.batch.cache.SemanticCacheRebuild;
import io.sluice.batch.faq.FaqSnapshotRebuild;
import io.sluice.batch.jobs.drain.DrainJobConfiguration;
import io.sluice.batch.reindex.KnowledgeReindex;

/** What each job does and which launch parameters it takes, in words, for the console and the API. */
public final class JobDescriptions {

    /** One launch parameter: its name, what values it takes and what it does. */
    public record Parameter(String name, String values, String meaning) {
    }

    /** A job in words. */
    public record Description(String summary, List<Parameter> parameters) {
    }

    private static final Map<String, Description> DESCRIPTIONS = Map.of(
        DrainJobConfiguration.JOB_NAME, new Description(
            "Works off the durable work queue (deferred answers, summaries) through the gateway's batch lane, "
                + "yielding to online chat when it is busy.",
            List.of(new Parameter("queue", "a queue name (default: default)", "which queue to drain"),
                new Parameter("maxItems", "a whole number ≥ 1", "stop after this many items"))),
        FaqSnapshotRebuild.JOB_NAME, new Description(
            "Rebuilds the FAQ snapshot from the database, validates it and publishes it to every instance.",
            List.of()),
        KnowledgeReindex.JOB_NAME, new Description(
            "Rebuilds the Lucene index from the database; with reembed=true also computes every chunk's "
                + "embedding again (after a model or normalisation change).",
            List.of(new Parameter("reembed", "true or false (default false)", "embed every chunk again"))),
        SemanticCacheRebuild.JOB_NAME, new Description(
            "Drops semantic-cache entries whose sources changed or that got negative feedback, and warms the "
                + "cache with the most frequent recent questions (no LLM calls).",
            List.of()));

    private JobDescriptions() {
    }

    /** The job's description; a plain one for a job this list does not know. */
    public static Description of(String jobName) {
        return DESCRIPTIONS.getOrDefault(jobName, new Description("", List.of()));
    }
}
