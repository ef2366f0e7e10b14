package io.sluice.batch.api;

import java.net.URI;
import java.util.UUID;

import jakarta.validation.Valid;

import io.sluice.batch.queue.Enqueued;
import io.sluice.batch.tasks.TaskService;
import io.sluice.batch.tasks.TaskSubmission;
import io.sluice.web.caller.ApiCaller;
import io.sluice.web.text.SafeText;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Queued work: {@code POST /api/v1/tasks} answers 202 with the task's id and status URL (200 with the
 * existing task when the idempotency key was seen before); {@code GET /api/v1/tasks/{id}} shows state,
 * progress, result or error. Tasks, their ids and idempotency keys belong to the calling client: another
 * client's id is not found (404), another client's key is simply a different key.
 */
@RestController
@RequestMapping(path = "/api/v1/tasks", produces = MediaType.APPLICATION_JSON_VALUE)
public class TaskController {

    private final TaskService tasks;

    public TaskController(TaskService tasks) {
        this.tasks = tasks;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<TaskView> submit(@Valid @RequestBody TaskRequest request,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyHeader,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        String key = request.idempotencyKey() != null ? request.idempotencyKey() : idempotencyHeader;
        if (key != null && (key.length() > 200 || SafeText.hasControl(key))) {
            throw new io.sluice.batch.tasks.TaskValidationException(
                io.sluice.batch.tasks.TaskValidationException.Kind.INVALID_PAYLOAD,
                "Idempotency-Key must be at most 200 characters, without control characters", java.util.List.of());
        }
        Enqueued enqueued = tasks.submit(new TaskSubmission(request.type(), request.payload(), key, request.priority(),
            ApiCaller.ownerOf(caller)));
        TaskView view = TaskView.of(enqueued.item());
        return ResponseEntity.status(enqueued.created() ? HttpStatus.ACCEPTED : HttpStatus.OK)
            .location(URI.create(view.statusUrl()))
            .body(view);
    }

    @GetMapping("/{id}")
    public TaskView get(@PathVariable("id") UUID id,
            @RequestAttribute(name = ApiCaller.ATTRIBUTE, required = false) ApiCaller caller) {
        return tasks.find(id, ApiCaller.ownerOf(caller)).map(TaskView::of)
            .orElseThrow(() -> new NotFoundException("no such task for this client"));
    }

    static String statusPath(UUID ticket) {
        return "/api/v1/tasks/" + ticket;
    }
}
