-- Intent taxonomy owned by the operator (issue 13): each intent has a priority class (S/A/B) and
-- labelled example messages in any language; the trained intent model (semantic_model kind 'intent')
-- learns from them. When the table is empty the shipped sample taxonomy is loaded into it.
CREATE TABLE intent_definition (
    key          VARCHAR(80)  PRIMARY KEY,
    priority     CHAR(1)      NOT NULL CHECK (priority IN ('S', 'A', 'B')),
    description  TEXT         NOT NULL DEFAULT '',
    owner        VARCHAR(200) NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);

CREATE TABLE intent_example (
    id           BIGSERIAL    PRIMARY KEY,
    intent_key   VARCHAR(80)  NOT NULL REFERENCES intent_definition (key) ON DELETE CASCADE,
    text         VARCHAR(2000) NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    UNIQUE (intent_key, text)
);
