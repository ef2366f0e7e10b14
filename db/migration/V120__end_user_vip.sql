-- VIP as an attribute of one end user of a client (besides the client's tier): the chat's userId, the /v1 user.
CREATE TABLE end_user_vip (
    client_id   BIGINT       NOT NULL REFERENCES api_client (id) ON DELETE CASCADE,
    user_id     VARCHAR(128) NOT NULL,
    created_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    created_by  VARCHAR(200),
    PRIMARY KEY (client_id, user_id)
);
