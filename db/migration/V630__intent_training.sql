-- Intent model trainings, visible cluster-wide (issue 13): the console and API of every instance show
-- the running training, its phase and the last result; the partial unique index lets only one training
-- run anywhere at a time (a second request gets 409). An instance that dies mid-training stops its
-- heartbeat; the next request marks that run failed ('abandoned') and may start.
CREATE TABLE intent_training (
    id            UUID         PRIMARY KEY,
    status        VARCHAR(16)  NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    phase         VARCHAR(40)  NOT NULL DEFAULT 'queued',
    actor         VARCHAR(200) NOT NULL,
    instance      VARCHAR(200) NOT NULL,
    started_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    heartbeat_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    finished_at   TIMESTAMPTZ,
    version       BIGINT,
    activated     BOOLEAN,
    decision      TEXT,
    error         TEXT,
    examples      INTEGER
);

CREATE UNIQUE INDEX intent_training_one_running ON intent_training ((true)) WHERE status = 'running';
CREATE INDEX intent_training_started ON intent_training (started_at DESC);
