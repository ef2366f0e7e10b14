-- Cache verification learned from the operator's data (issue 13, item 2): labelled question pairs
-- (imported, or labelled served hits from the review queue) that the pair verifier is trained on, and
-- the review queue itself (a sample of served semantic-cache hits waiting for an operator's label).
CREATE TABLE semantic_pair (
    id              BIGSERIAL     PRIMARY KEY,
    question_a      VARCHAR(300)  NOT NULL,
    question_b      VARCHAR(300)  NOT NULL,
    same_answer     BOOLEAN       NOT NULL,
    intent_a        VARCHAR(100),
    intent_b        VARCHAR(100),
    faq_a           VARCHAR(200),
    faq_b           VARCHAR(200),
    source          VARCHAR(20)   NOT NULL CHECK (source IN ('import', 'review')),
    import_id       VARCHAR(40),
    owner           VARCHAR(200)  NOT NULL,
    created_at      TIMESTAMPTZ   NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ   NOT NULL DEFAULT now(),
    UNIQUE (question_a, question_b)
);
CREATE INDEX semantic_pair_source_idx ON semantic_pair (source, id);

CREATE TABLE cache_hit_review (
    id              BIGSERIAL     PRIMARY KEY,
    asked           VARCHAR(300)  NOT NULL,
    matched         VARCHAR(300)  NOT NULL,
    cosine          DOUBLE PRECISION NOT NULL,
    probability     DOUBLE PRECISION,
    level           VARCHAR(4)    NOT NULL,
    model_version   BIGINT        NOT NULL DEFAULT 0,
    client_id       BIGINT,
    label           VARCHAR(10)   CHECK (label IN ('right', 'wrong')),
    labelled_by     VARCHAR(200),
    labelled_at     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ   NOT NULL DEFAULT now()
);
CREATE INDEX cache_hit_review_open_idx ON cache_hit_review (id DESC) WHERE label IS NULL;
