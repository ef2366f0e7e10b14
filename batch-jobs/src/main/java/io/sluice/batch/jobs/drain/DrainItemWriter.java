package io.sluice.batch.jobs.drain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.batch.jobs.drain.DrainResult.ConversationSummary;
import io.sluice.batch.jobs.drain.DrainResult.DeferredAnswer;
import io.sluice.batch.jobs.drain.DrainResult.DocumentSummary;
import io.sluice.batch.queue.WorkQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import tools.jackson.databind.json.JsonMapper;

/**
 * Applies a chunk's results in the chunk transaction: DONE + stored summary / deferred answer, retry
 * with backoff, dead-letter, or saturation put-back. Every change is fenced by the item's lease token,
 * so a worker whose lease passed to another changes nothing. Each completed item is stored under a
 * savepoint: a result that cannot be stored (its conversation was deleted meanwhile) dead-letters that
 * item only.
 */
public class DrainItemWriter implements ItemWriter<DrainResult> {

    private static final Logger log = LoggerFactory.getLogger(DrainItemWriter.class);

    private final WorkQueue queue;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate savepoint;

    public DrainItemWriter(WorkQueue queue, JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.queue = queue;
        this.jdbc = jdbc;
        this.savepoint = new TransactionTemplate(transactionManager);
        this.savepoint.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    }

    @Override
    public void write(Chunk<? extends DrainResult> chunk) {
        List<DrainResult.Completed> completed = new ArrayList<>();
        for (DrainResult result : chunk) {
            if (result instanceof DrainResult.Completed c) {
                completed.add(c);
            }
        }
        if (!completed.isEmpty()) {
            try {
                savepoint.executeWithoutResult(status -> storeAll(completed));
            } catch (DataIntegrityViolationException e) {
                // one of them cannot be stored: store one by one so that only that one is dead-lettered
                completed.forEach(this::store);
            }
        }
        for (DrainResult result : chunk) {
            if (result instanceof DrainResult.Failed failed) {
                queue.fail(failed.item(), failed.reason());
            } else if (result instanceof DrainResult.Requeued requeued) {
                queue.requeue(requeued.item(), requeued.delay());
            }
        }
    }

    /** The fast path: the chunk's completions in a few JDBC batches. */
    private void storeAll(List<DrainResult.Completed> completed) {
        boolean[] owned = queue.completeAll(completed.stream().map(DrainResult.Completed::item).toList(),
            completed.stream().map(DrainItemWriter::resultJson).toList());
        List<Object[]> conversations = new ArrayList<>();
        List<Object[]> documents = new ArrayList<>();
        List<Object[]> answers = new ArrayList<>();
        for (int i = 0; i < completed.size(); i++) {
            if (!owned[i]) {
                continue; // lease lost: the current holder stores its own result
            }
            DrainResult.Completed c = completed.get(i);
            if (c.subject() instanceof ConversationSummary s) {
                conversations.add(new Object[] {c.item().id(), s.conversationId(), c.text(), c.model()});
            } else if (c.subject() instanceof DocumentSummary s) {
                documents.add(new Object[] {c.item().id(), s.documentId(), c.text(), c.model()});
            } else if (c.subject() instanceof DeferredAnswer a) {
                answers.add(new Object[] {a.ticket(), c.item().id(), a.conversationId(), a.question(), c.text(), c.model()});
            }
        }
        if (!conversations.isEmpty()) {
            jdbc.batchUpdate("INSERT INTO summary (work_item_id, conversation_id, content, model) VALUES (?, ?, ?, ?)", conversations);
        }
        if (!documents.isEmpty()) {
            jdbc.batchUpdate("INSERT INTO summary (work_item_id, document_id, content, model) VALUES (?, ?, ?, ?)", documents);
        }
        if (!answers.isEmpty()) {
            jdbc.batchUpdate("""
                INSERT INTO deferred_answer (ticket, work_item_id, conversation_id, question, answer, model)
                VALUES (?, ?, ?, ?, ?, ?)""", answers);
        }
    }

    private void store(DrainResult.Completed completed) {
        try {
            savepoint.executeWithoutResult(status -> {
                if (!queue.complete(completed.item(), resultJson(completed))) {
                    return; // lease lost: the current holder will store its own result
                }
                if (completed.subject() instanceof ConversationSummary s) {
                    jdbc.update("INSERT INTO summary (work_item_id, conversation_id, content, model) VALUES (?, ?, ?, ?)",
                        completed.item().id(), s.conversationId(), completed.text(), completed.model());
                } else if (completed.subject() instanceof DocumentSummary s) {
                    jdbc.update("INSERT INTO summary (work_item_id, document_id, content, model) VALUES (?, ?, ?, ?)",
                        completed.item().id(), s.documentId(), completed.text(), completed.model());
                } else if (completed.subject() instanceof DeferredAnswer a) {
                    jdbc.update("""
                        INSERT INTO deferred_answer (ticket, work_item_id, conversation_id, question, answer, model)
                        VALUES (?, ?, ?, ?, ?, ?)""",
                        a.ticket(), completed.item().id(), a.conversationId(), a.question(), completed.text(), completed.model());
                }
            });
        } catch (DataIntegrityViolationException e) {
            log.warn("result of work item {} could not be stored: {}", completed.item().id(), e.getMostSpecificCause().getMessage());
            queue.deadLetter(completed.item(), "result could not be stored: " + e.getMostSpecificCause().getMessage());
        }
    }

    static String resultJson(DrainResult.Completed completed) {
        Map<String, Object> result = new LinkedHashMap<>();
        if (completed.subject() instanceof ConversationSummary s) {
            result.put("conversationId", s.conversationId().toString());
            result.put("summary", completed.text());
        } else if (completed.subject() instanceof DocumentSummary s) {
            result.put("documentId", s.documentId());
            result.put("summary", completed.text());
        } else if (completed.subject() instanceof DeferredAnswer a) {
            result.put("ticket", a.ticket().toString());
            result.put("answer", completed.text());
        }
        result.put("model", completed.model());
        return JsonMapper.shared().writeValueAsString(result);
    }
}
