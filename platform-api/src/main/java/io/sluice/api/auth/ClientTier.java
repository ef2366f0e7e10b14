package io.sluice.api.auth;

/** A client's service tier: VIP clients get a larger rate and a heavier admission weight. */
public enum ClientTier {
    STANDARD,
    VIP
}
