-- Sluice core schema. Migrations are numbered by owner so parallel work never collides:
--   V1-V99 foundation, V100+ governance, V200+ knowledge, V300+ chat, V400+ batch, V500+ console.

-- Knowledge: documents and their chunks. The vector column is added by V2 only where pgvector exists.
CREATE TABLE knowledge_document (
    id            BIGSERIAL PRIMARY KEY,
    external_id   VARCHAR(200) NOT NULL UNIQUE,
    title         VARCHAR(500) NOT NULL,
    source_url    VARCHAR(2000),
    content_type  VARCHAR(100) NOT NULL,
    content_hash  CHAR(64)     NOT NULL,
    category      VARCHAR(100),
    tags          TEXT[]       NOT NULL DEFAULT '{}',
    valid_from    TIMESTAMPTZ,
    valid_until   TIMESTAMPTZ,
    ingested_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    version       INT          NOT NULL DEFAULT 1
);

CREATE TABLE knowledge_chunk (
    id           BIGSERIAL PRIMARY KEY,
    document_id  BIGINT       NOT NULL REFERENCES knowledge_document (id) ON DELETE CASCADE,
    ordinal      INT          NOT NULL,
    heading      VARCHAR(1000),
    content      TEXT         NOT NULL,
    token_count  INT          NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    UNIQUE (document_id, ordinal)
);
CREATE INDEX knowledge_chunk_document_idx ON knowledge_chunk (document_id);

-- FAQ: curated entries, and immutable versioned snapshots built from them.
CREATE TABLE faq_entry (
    id           BIGSERIAL PRIMARY KEY,
    question     VARCHAR(1000) NOT NULL,
    phrasings    TEXT[]        NOT NULL DEFAULT '{}',
    answer       TEXT          NOT NULL CHECK (length(btrim(answer)) > 0),
    category     VARCHAR(100),
    tags         TEXT[]        NOT NULL DEFAULT '{}',
    valid_from   TIMESTAMPTZ,
    valid_until  TIMESTAMPTZ,
    created_at   TIMESTAMPTZ   NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ   NOT NULL DEFAULT now()
);

CREATE TABLE faq_snapshot (
    id           BIGSERIAL PRIMARY KEY,
    version      BIGINT       NOT NULL UNIQUE,
    entry_count  INT          NOT NULL,
    checksum     CHAR(64)     NOT NULL,
    status       VARCHAR(20)  NOT NULL CHECK (status IN ('BUILT', 'PUBLISHED', 'REJECTED', 'RETIRED')),
    detail       TEXT,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    published_at TIMESTAMPTZ
);

-- API clients: keys are stored only as SHA-256 hashes; the prefix lets an operator recognise a key.
CREATE TABLE api_client (
    id           BIGSERIAL PRIMARY KEY,
    name         VARCHAR(200) NOT NULL,
    key_prefix   VARCHAR(16)  NOT NULL,
    key_hash     CHAR(64)     NOT NULL UNIQUE,
    tier         VARCHAR(20)  NOT NULL DEFAULT 'STANDARD' CHECK (tier IN ('STANDARD', 'VIP')),
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    revoked_at   TIMESTAMPTZ
);

-- Conversations and their messages (text is stored masked: phones, ID and bank-card numbers).
CREATE TABLE conversation (
    id           UUID         PRIMARY KEY,
    user_id      VARCHAR(200) NOT NULL,
    client_id    BIGINT       REFERENCES api_client (id),
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX conversation_user_idx ON conversation (user_id, updated_at DESC);

CREATE TABLE conversation_message (
    id               BIGSERIAL PRIMARY KEY,
    conversation_id  UUID         NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    request_id       UUID         NOT NULL,
    role             VARCHAR(20)  NOT NULL CHECK (role IN ('USER', 'ASSISTANT')),
    content          TEXT         NOT NULL,
    tier             VARCHAR(4),
    intent           VARCHAR(50),
    priority         VARCHAR(2),
    latency_ms       INT,
    cached           BOOLEAN      NOT NULL DEFAULT FALSE,
    sources          JSONB        NOT NULL DEFAULT '[]',
    feedback         VARCHAR(20),
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX conversation_message_conv_idx ON conversation_message (conversation_id, id);
CREATE INDEX conversation_message_request_idx ON conversation_message (request_id);

-- Durable work queue: claimed with SELECT ... FOR UPDATE SKIP LOCKED; a lease (locked_until)
-- brings a dead worker's items back.
CREATE TABLE work_item (
    id               BIGSERIAL PRIMARY KEY,
    type             VARCHAR(50)  NOT NULL,
    priority         INT          NOT NULL DEFAULT 5,
    payload          JSONB        NOT NULL,
    idempotency_key  VARCHAR(200) UNIQUE,
    state            VARCHAR(20)  NOT NULL DEFAULT 'QUEUED'
                     CHECK (state IN ('QUEUED', 'RUNNING', 'DONE', 'DEAD')),
    attempts         INT          NOT NULL DEFAULT 0,
    max_attempts     INT          NOT NULL DEFAULT 5,
    next_attempt_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    locked_by        VARCHAR(200),
    locked_until     TIMESTAMPTZ,
    progress         INT          NOT NULL DEFAULT 0,
    result           JSONB,
    last_error       TEXT,
    created_at       TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX work_item_ready_idx ON work_item (priority, next_attempt_at) WHERE state = 'QUEUED';

-- Audit log: every change made through the API or console (who, when, what, before -> after).
CREATE TABLE audit_log (
    id        BIGSERIAL PRIMARY KEY,
    at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    actor     VARCHAR(200) NOT NULL,
    action    VARCHAR(100) NOT NULL,
    target    VARCHAR(500),
    before    TEXT,
    after     TEXT
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
