-- Key facts of a session (order numbers, entities, complaints, promises), extracted by rules from the
-- masked exchange and kept with the session so they outlive the Redis turns (docs/chat.md, "Memory").
CREATE TABLE session_fact (
    id               BIGSERIAL    PRIMARY KEY,
    conversation_id  UUID         NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    kind             VARCHAR(16)  NOT NULL,
    content          TEXT         NOT NULL,
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now()
);

CREATE INDEX session_fact_conv_idx ON session_fact (conversation_id, id);
