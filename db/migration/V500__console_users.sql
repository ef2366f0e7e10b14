-- Console operators. Passwords are BCrypt hashes; roles: VIEWER (read), OPERATOR (change the live
-- platform), ADMIN (also users and API clients). must_change_password marks a one-time password.
CREATE TABLE console_user (
    id                    BIGSERIAL PRIMARY KEY,
    username              VARCHAR(100) NOT NULL UNIQUE,
    password_hash         VARCHAR(100) NOT NULL,
    role                  VARCHAR(20)  NOT NULL CHECK (role IN ('VIEWER', 'OPERATOR', 'ADMIN')),
    must_change_password  BOOLEAN      NOT NULL DEFAULT FALSE,
    disabled              BOOLEAN      NOT NULL DEFAULT FALSE,
    created_at            TIMESTAMPTZ  NOT NULL DEFAULT now()
);
