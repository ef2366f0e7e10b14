package io.sluice.console.users;

import java.util.List;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Console users in the database, passwords as BCrypt hashes. */
@Service
public class ConsoleUsers {

    public static final int MIN_PASSWORD_LENGTH = 12;

    private final JdbcClient jdbc;
    private final PasswordEncoder passwords;

    public ConsoleUsers(JdbcClient jdbc, PasswordEncoder passwords) {
        this.jdbc = jdbc;
        this.passwords = passwords;
    }

    public record ConsoleUser(long id, String username, String passwordHash, ConsoleRole role,
            boolean mustChangePassword, boolean disabled) {
    }

    public Optional<ConsoleUser> find(String username) {
        return jdbc.sql("""
                SELECT id, username, password_hash, role, must_change_password, disabled
                FROM console_user WHERE username = ?""")
            .param(username)
            .query((rs, n) -> new ConsoleUser(rs.getLong("id"), rs.getString("username"), rs.getString("password_hash"),
                ConsoleRole.valueOf(rs.getString("role")), rs.getBoolean("must_change_password"), rs.getBoolean("disabled")))
            .optional();
    }

    public List<ConsoleUser> all() {
        return jdbc.sql("""
                SELECT id, username, '' AS password_hash, role, must_change_password, disabled
                FROM console_user ORDER BY username""")
            .query((rs, n) -> new ConsoleUser(rs.getLong("id"), rs.getString("username"), "",
                ConsoleRole.valueOf(rs.getString("role")), rs.getBoolean("must_change_password"), rs.getBoolean("disabled")))
            .list();
    }

    public boolean none() {
        return jdbc.sql("SELECT count(*) FROM console_user").query(Long.class).single() == 0;
    }

    /**
     * Creates a user.
     *
     * @throws IllegalArgumentException with a message for people when the input is not acceptable
     */
    @Transactional
    public void create(String username, String rawPassword, ConsoleRole role, boolean mustChangePassword) {
        validateUsername(username);
        validatePassword(rawPassword);
        try {
            jdbc.sql("INSERT INTO console_user (username, password_hash, role, must_change_password) VALUES (?, ?, ?, ?)")
                .params(username, passwords.encode(rawPassword), role.name(), mustChangePassword)
                .update();
        } catch (DuplicateKeyException e) {
            throw new IllegalArgumentException("a user named '" + username + "' already exists");
        }
    }

    /** Whether {@code rawPassword} is the user's current password. */
    public boolean passwordMatches(String username, String rawPassword) {
        return rawPassword != null && find(username).map(u -> passwords.matches(rawPassword, u.passwordHash())).orElse(false);
    }

    public void changePassword(String username, String rawPassword) {
        validatePassword(rawPassword);
        jdbc.sql("UPDATE console_user SET password_hash = ?, must_change_password = FALSE WHERE username = ?")
            .params(passwords.encode(rawPassword), username)
            .update();
    }

    /** @throws IllegalArgumentException when there is no such user */
    public void setRole(String username, ConsoleRole role) {
        int updated = jdbc.sql("UPDATE console_user SET role = ? WHERE username = ?").params(role.name(), username).update();
        if (updated == 0) {
            throw new IllegalArgumentException("no user named '" + username + "'");
        }
    }

    private static void validateUsername(String username) {
        if (username == null || !username.matches("[A-Za-z0-9._-]{3,100}")) {
            throw new IllegalArgumentException("username must be 3-100 letters, digits, '.', '_' or '-'");
        }
    }

    private static void validatePassword(String password) {
        if (password == null || password.length() < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException("password must be at least " + MIN_PASSWORD_LENGTH + " characters");
        }
    }
}
