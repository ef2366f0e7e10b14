package io.sluice.app.chat;

import io.sluice.api.chat.ChatContext;
import io.sluice.api.chat.DeferredAnswers;
import io.sluice.api.masking.PiiMasker;
import io.sluice.batch.queue.Enqueued;
import io.sluice.batch.tasks.TaskService;
import io.sluice.batch.tasks.TaskSubmission;

import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Deferred (F0) chat answers as {@code deferred_answer} tasks on batch-jobs' durable work queue,
 * validated like API tasks; the drain job answers them on the batch lane and
 * {@code GET /api/v1/tasks/{ticket}} returns the result. The question is stored masked; one task per
 * chat request (idempotency key {@code chat:<requestId>}), owned by the asking client. Lives in the app
 * so that platform-api does not depend on batch-jobs.
 */
@Component
public class WorkQueueDeferredAnswers implements DeferredAnswers {

    /** Deferred customer questions go before routine work (summaries use the default 5). */
    static final int PRIORITY = 3;

    private final TaskService tasks;
    private final PiiMasker masker;

    public WorkQueueDeferredAnswers(TaskService tasks, PiiMasker masker) {
        this.tasks = tasks;
        this.masker = masker;
    }

    @Override
    public Ticket defer(ChatContext ctx) {
        ObjectNode payload = JsonMapper.shared().createObjectNode();
        payload.put("question", masker.mask(ctx.message()));
        if (ctx.session() != null) {
            payload.put("conversationId", ctx.session().id().toString());
        }
        // the ticket is the asking client's: only it can read the answer (GET /api/v1/tasks/{ticket})
        Enqueued enqueued = tasks.submitForOwnSession(new TaskSubmission("deferred_answer", payload, "chat:" + ctx.requestId(), PRIORITY,
            ctx.client().id()));
        return new Ticket(enqueued.item().ticket(), "/api/v1/tasks/" + enqueued.item().ticket());
    }
}
