-- One number per client that changes with each change of its VIP end users: an instance keeps a client's VIP
-- users in memory and reads only this row to know they still hold (no row = version 0, nothing changed yet).
CREATE TABLE end_user_vip_version (
    client_id BIGINT NOT NULL PRIMARY KEY REFERENCES api_client (id) ON DELETE CASCADE,
    version   BIGINT NOT NULL
);
