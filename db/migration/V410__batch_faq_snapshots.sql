-- Batch (issue 6): FAQ snapshot distribution and FAQ candidates mined from conversation logs.

-- Every published FAQ snapshot, serialized (knowledge's snapshot format with its SHA-256 trailer), so
-- every instance can load the version that was announced, and roll back to any version kept here.
CREATE TABLE faq_snapshot_blob (
    version      BIGINT       PRIMARY KEY,
    content      BYTEA        NOT NULL,
    entry_count  INT          NOT NULL,
    checksum     CHAR(64)     NOT NULL,
    self_hit     DOUBLE PRECISION,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- The version every instance should answer with (one row); instances starting later catch up to it.
CREATE TABLE faq_snapshot_current (
    id           INT          PRIMARY KEY CHECK (id = 1),
    version      BIGINT       NOT NULL REFERENCES faq_snapshot_blob (version),
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- Frequent customer questions that the FAQ did not answer well (low tier or negative feedback),
-- grouped by embedding similarity. Proposed for review; only approved or merged ones reach the FAQ.
CREATE TABLE faq_candidate (
    id              BIGSERIAL    PRIMARY KEY,
    question        TEXT         NOT NULL,
    examples        TEXT[]       NOT NULL DEFAULT '{}',
    occurrences     INT          NOT NULL,
    low_tier        INT          NOT NULL DEFAULT 0,
    negative        INT          NOT NULL DEFAULT 0,
    status          VARCHAR(20)  NOT NULL DEFAULT 'PROPOSED'
                    CHECK (status IN ('PROPOSED', 'APPROVED', 'MERGED', 'REJECTED')),
    faq_key         VARCHAR(200),
    reviewed_by     VARCHAR(200),
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    reviewed_at     TIMESTAMPTZ
);
CREATE INDEX faq_candidate_status_idx ON faq_candidate (status, occurrences DESC);
