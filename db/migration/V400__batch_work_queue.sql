-- Batch (issue 6): work queue additions, summaries and deferred answers.

-- The public handle of a task (API id and deferred-answer ticket): random, so tasks cannot be enumerated.
ALTER TABLE work_item ADD COLUMN ticket UUID NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE work_item ADD CONSTRAINT work_item_ticket_key UNIQUE (ticket);
-- Named queues: a drain job takes items of one queue only (API tasks go to 'default').
ALTER TABLE work_item ADD COLUMN queue VARCHAR(50) NOT NULL DEFAULT 'default';
-- Fencing token of the current claim: only the holder of the latest claim may finish the item.
ALTER TABLE work_item ADD COLUMN lease_token UUID;
ALTER TABLE work_item ADD COLUMN completed_at TIMESTAMPTZ;
ALTER TABLE work_item ADD CONSTRAINT work_item_priority_range CHECK (priority BETWEEN 0 AND 9);
ALTER TABLE work_item ADD CONSTRAINT work_item_progress_range CHECK (progress BETWEEN 0 AND 100);

DROP INDEX IF EXISTS work_item_ready_idx;
CREATE INDEX work_item_ready_idx ON work_item (queue, priority, next_attempt_at) WHERE state = 'QUEUED';
CREATE INDEX work_item_lease_idx ON work_item (queue, locked_until) WHERE state = 'RUNNING';
CREATE INDEX work_item_state_idx ON work_item (state);

-- Summaries produced by the drain job, linked to what they summarize (exactly one of the two).
CREATE TABLE summary (
    id               BIGSERIAL PRIMARY KEY,
    work_item_id     BIGINT       NOT NULL UNIQUE REFERENCES work_item (id) ON DELETE CASCADE,
    conversation_id  UUID         REFERENCES conversation (id) ON DELETE CASCADE,
    document_id      BIGINT       REFERENCES knowledge_document (id) ON DELETE CASCADE,
    content          TEXT         NOT NULL,
    model            VARCHAR(200),
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now(),
    CHECK ((conversation_id IS NULL) <> (document_id IS NULL))
);
CREATE INDEX summary_conversation_idx ON summary (conversation_id, created_at DESC) WHERE conversation_id IS NOT NULL;
CREATE INDEX summary_document_idx ON summary (document_id, created_at DESC) WHERE document_id IS NOT NULL;

-- Deferred answers (tier F0): retrievable by the ticket the customer was given.
CREATE TABLE deferred_answer (
    ticket           UUID         PRIMARY KEY,
    work_item_id     BIGINT       NOT NULL UNIQUE REFERENCES work_item (id) ON DELETE CASCADE,
    conversation_id  UUID         REFERENCES conversation (id) ON DELETE SET NULL,
    question         TEXT         NOT NULL,
    answer           TEXT         NOT NULL,
    model            VARCHAR(200),
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now()
);
