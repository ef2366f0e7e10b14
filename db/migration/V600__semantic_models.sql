-- Semantics (issue 13): models learned from the operator's data (intent classifier, cache pair
-- verifier, relevance thresholds, ...), versioned per kind and activated cluster-wide like FAQ
-- snapshots. A model is stored with the evaluation it got on its held-out split; only the version
-- named in semantic_model_current answers, and every activation is kept so it can be rolled back.
CREATE TABLE semantic_model (
    kind         VARCHAR(40)  NOT NULL,
    version      BIGINT       NOT NULL,
    payload      BYTEA        NOT NULL,
    evaluation   JSONB,
    note         TEXT,
    created_by   VARCHAR(200),
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, version)
);

-- The version of each kind every instance answers with; instances starting later catch up to it.
CREATE TABLE semantic_model_current (
    kind         VARCHAR(40)  PRIMARY KEY,
    version      BIGINT       NOT NULL,
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    FOREIGN KEY (kind, version) REFERENCES semantic_model (kind, version)
);

-- Every activation and rollback, in order: activations stack up, a rollback undoes the latest one
-- (version = the one put back; NULL = the built-in default answers again).
CREATE TABLE semantic_model_activation (
    id           BIGSERIAL    PRIMARY KEY,
    kind         VARCHAR(40)  NOT NULL,
    version      BIGINT,
    action       VARCHAR(20)  NOT NULL CHECK (action IN ('ACTIVATE', 'FORCE', 'ROLLBACK')),
    actor        VARCHAR(200),
    reason       TEXT,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    FOREIGN KEY (kind, version) REFERENCES semantic_model (kind, version)
);
CREATE INDEX semantic_model_activation_kind_idx ON semantic_model_activation (kind, id DESC);

-- Evaluation reports (an evaluator run on a labelled file through the online path), newest shown in
-- the console. metrics: headline figures by name; details: confusion matrix, curves, misses.
CREATE TABLE semantic_evaluation (
    id             BIGSERIAL    PRIMARY KEY,
    kind           VARCHAR(40)  NOT NULL,
    items          INT          NOT NULL,
    metrics        JSONB        NOT NULL,
    details        JSONB        NOT NULL DEFAULT '{}',
    model_version  BIGINT       NOT NULL DEFAULT 0,
    actor          VARCHAR(200),
    source         VARCHAR(200),
    created_at     TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX semantic_evaluation_kind_idx ON semantic_evaluation (kind, id DESC);
