-- Gateway keys (issue 16): per-key model scopes and budgets, spend per key and user, the /v1 request log.

-- What one API key may do at the gateway. No row = every model, no budget, no degraded answers.
CREATE TABLE gateway_key_policy (
    client_id       BIGINT PRIMARY KEY REFERENCES api_client (id) ON DELETE CASCADE,
    allowed_models  TEXT[]         NOT NULL DEFAULT '{}',   -- empty = every model; else route keys or names
    daily_tokens    BIGINT         CHECK (daily_tokens IS NULL OR daily_tokens >= 0),
    monthly_tokens  BIGINT         CHECK (monthly_tokens IS NULL OR monthly_tokens >= 0),
    daily_cost      NUMERIC(14, 6) CHECK (daily_cost IS NULL OR daily_cost >= 0),
    monthly_cost    NUMERIC(14, 6) CHECK (monthly_cost IS NULL OR monthly_cost >= 0),
    allow_degraded  BOOLEAN        NOT NULL DEFAULT FALSE,  -- F1 answers instead of 503/504 errors
    updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now()
);

-- Spend per key, user, day (UTC), model and provider; one row per combination, added to on every answer.
CREATE TABLE gateway_spend (
    client_id         BIGINT         NOT NULL REFERENCES api_client (id) ON DELETE CASCADE,
    user_id           VARCHAR(128)   NOT NULL,
    day               DATE           NOT NULL,
    model             VARCHAR(200)   NOT NULL,
    provider          VARCHAR(100)   NOT NULL,
    requests          BIGINT         NOT NULL DEFAULT 0,
    prompt_tokens     BIGINT         NOT NULL DEFAULT 0,
    completion_tokens BIGINT         NOT NULL DEFAULT 0,
    cost              NUMERIC(18, 8) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, day, user_id, model, provider)
);

-- Every /v1 call (answered or refused), kept sluice.gateway.keys.request-log-retention.
CREATE TABLE gateway_request_log (
    id                BIGSERIAL PRIMARY KEY,
    at                TIMESTAMPTZ  NOT NULL DEFAULT now(),
    client_id         BIGINT       NOT NULL,
    user_id           VARCHAR(128),
    model             VARCHAR(200) NOT NULL,
    route             VARCHAR(200),
    provider          VARCHAR(100),
    status            INT          NOT NULL,
    tier              VARCHAR(4)   NOT NULL,
    latency_ms        INT          NOT NULL,
    prompt_tokens     INT          NOT NULL DEFAULT 0,
    completion_tokens INT          NOT NULL DEFAULT 0,
    stream            BOOLEAN      NOT NULL DEFAULT FALSE,
    error_code        VARCHAR(64)
);
CREATE INDEX gateway_request_log_at ON gateway_request_log (at);
CREATE INDEX gateway_request_log_client_at ON gateway_request_log (client_id, at);
