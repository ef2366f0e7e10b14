package io.sluice.batch.jobs.drain;

import java.util.List;
import java.util.UUID;

import io.sluice.batch.jobs.drain.DrainResult.ConversationSummary;
import io.sluice.batch.jobs.drain.DrainResult.DeferredAnswer;
import io.sluice.batch.jobs.drain.DrainResult.DocumentSummary;
import io.sluice.batch.jobs.drain.DrainResult.Subject;
import io.sluice.batch.queue.ClaimedItem;
import io.sluice.batch.tasks.TaskType;
import io.sluice.governance.gateway.LlmMessage;
import io.sluice.knowledge.answer.AnswerLanguage;
import io.sluice.knowledge.answer.GroundedPrompt;
import io.sluice.knowledge.answer.NoAnswer;
import io.sluice.knowledge.chain.RetrievalResult;

import org.springframework.jdbc.core.JdbcTemplate;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a claimed item into the prompt for the batch lane, reading the conversation or document it
 * names. Anything that makes the item impossible to do is a {@link PoisonItemException}.
 */
public class PromptBuilder {

    /**
     * A prompt and what its answer belongs to.
     *
     * @param direct an answer that needs no LLM call (the honest no-answer when nothing relevant was
     *               retrieved), or null
     */
    public record Prompt(Subject subject, List<LlmMessage> messages, String direct) {
        public Prompt(Subject subject, List<LlmMessage> messages) {
            this(subject, messages, null);
        }
    }

    /**
     * Retrieval for deferred answers: the knowledge chain with the relevance bars in service, as the online
     * tiers use it (wired in {@link DrainJobConfiguration}).
     */
    @FunctionalInterface
    public interface Grounding {
        RetrievalResult retrieve(String question);
    }

    /** The model name stored with a deferred answer that was the honest no-answer (no LLM call). */
    public static final String NO_ANSWER_MODEL = "none:no-relevant-passage";

    private final JdbcTemplate jdbc;
    private final int maxInputChars;
    private final Grounding grounding;
    private final int passageChars;

    public PromptBuilder(JdbcTemplate jdbc, int maxInputChars) {
        this(jdbc, maxInputChars, null, 1200);
    }

    /**
     * @param grounding    retrieval for deferred answers; null = no knowledge base here (the prompt still
     *                     forbids inventing policies)
     * @param passageChars longest passage text in a deferred answer's prompt (as F4's)
     */
    public PromptBuilder(JdbcTemplate jdbc, int maxInputChars, Grounding grounding, int passageChars) {
        this.jdbc = jdbc;
        this.maxInputChars = maxInputChars;
        this.grounding = grounding;
        this.passageChars = passageChars;
    }

    public Prompt build(ClaimedItem item) {
        TaskType type = TaskType.fromWire(item.type())
            .orElseThrow(() -> new PoisonItemException("unknown task type '" + item.type() + "'"));
        JsonNode payload;
        try {
            payload = JsonMapper.shared().readTree(item.payload());
        } catch (JacksonException e) {
            throw new PoisonItemException("payload is not valid JSON");
        }
        return switch (type) {
            case SUMMARIZE_CONVERSATION -> conversation(payload);
            case SUMMARIZE_DOCUMENT -> document(payload);
            case DEFERRED_ANSWER -> deferred(item, payload);
        };
    }

    private Prompt conversation(JsonNode payload) {
        UUID id = uuid(payload, "conversationId");
        StringBuilder transcript = new StringBuilder();
        jdbc.query("SELECT role, content FROM conversation_message WHERE conversation_id = ? ORDER BY id",
            rs -> {
                transcript.append(rs.getString("role").equals("USER") ? "Customer: " : "Assistant: ")
                    .append(rs.getString("content")).append('\n');
            }, id);
        if (transcript.isEmpty()) {
            throw new PoisonItemException("conversation " + id + " does not exist or has no messages");
        }
        return new Prompt(new ConversationSummary(id), List.of(
            LlmMessage.system("Summarize this customer-service conversation in at most " + maxWords(payload)
                + " words: the customer's issue, what was answered or done, and anything still open."
                + " Do not repeat personal data."),
            LlmMessage.user(clip(transcript.toString()))));
    }

    private Prompt document(JsonNode payload) {
        long id = payload.path("documentId").asLong();
        List<String> titles = jdbc.queryForList("SELECT title FROM knowledge_document WHERE id = ?", String.class, id);
        if (titles.isEmpty()) {
            throw new PoisonItemException("document " + id + " does not exist");
        }
        StringBuilder text = new StringBuilder();
        jdbc.query("SELECT content FROM knowledge_chunk WHERE document_id = ? AND NOT disabled ORDER BY ordinal",
            rs -> {
                if (text.length() < maxInputChars) {
                    text.append(rs.getString("content")).append("\n\n");
                }
            }, id);
        if (text.isEmpty()) {
            throw new PoisonItemException("document " + id + " has no content");
        }
        return new Prompt(new DocumentSummary(id), List.of(
            LlmMessage.system("Summarize this knowledge-base document in at most " + maxWords(payload)
                + " words for customer-service agents: what it covers, key rules, numbers and exceptions."),
            LlmMessage.user("Title: " + titles.get(0) + "\n\n" + clip(text.toString()))));
    }

    private Prompt deferred(ClaimedItem item, JsonNode payload) {
        String question = payload.path("question").asString("");
        if (question.isBlank()) {
            throw new PoisonItemException("deferred answer without a question");
        }
        UUID conversation = payload.hasNonNull("conversationId") ? uuid(payload, "conversationId") : null;
        String locale = payload.path("locale").asString("");
        DeferredAnswer subject = new DeferredAnswer(item.ticket(), conversation, question);
        AnswerLanguage language = AnswerLanguage.of(question);
        String answerIn = locale.isBlank() ? "\n" + language.instruction() : "\nAnswer in " + locale + ".";
        if (grounding == null) {
            return new Prompt(subject, List.of(
                LlmMessage.system("You are a customer-service assistant answering a question that was queued while"
                    + " the service was busy. Answer accurately and briefly. Never invent policies, amounts or dates;"
                    + " if you are not sure, say so and suggest contacting a human agent." + answerIn),
                LlmMessage.user(clip(question))));
        }
        // grounded like the online F4 tier: the chain's passages above the relevance bars, the same prompt;
        // nothing relevant anywhere = the same honest no-answer as online, without asking the model to guess
        RetrievalResult retrieved = grounding.retrieve(question);
        if (!retrieved.found()) {
            return new Prompt(subject, List.of(), NoAnswer.text(language));
        }
        return new Prompt(subject, List.of(
            LlmMessage.system("This question was queued while the service was busy; answer it fully now.\n"
                + GroundedPrompt.FULL_SYSTEM_PROMPT.formatted(GroundedPrompt.numbered(retrieved.passages(), passageChars))
                + answerIn),
            LlmMessage.user(clip(question))));
    }

    private static UUID uuid(JsonNode payload, String field) {
        try {
            return UUID.fromString(payload.path(field).asString(""));
        } catch (IllegalArgumentException e) {
            throw new PoisonItemException("payload." + field + " is not a UUID");
        }
    }

    private static int maxWords(JsonNode payload) {
        return payload.hasNonNull("maxWords") ? payload.get("maxWords").asInt() : 150;
    }

    private String clip(String text) {
        return text.length() <= maxInputChars ? text : text.substring(0, maxInputChars);
    }
}
