package io.sluice.console.users;

/** What a console user may do. Each role includes the ones above it. */
public enum ConsoleRole {
    /** sees everything, changes nothing */
    VIEWER,
    /** changes the live platform: levels, permits, rules, knowledge, jobs, queue */
    OPERATOR,
    /** also manages console users and API clients */
    ADMIN
}
