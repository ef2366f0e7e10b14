package io.sluice.console.security;

import io.sluice.api.ingress.SourceAddressLimiter;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * Password authentication behind the limiters: a name no console user can have (too long, control
 * characters) is refused before anything is looked up; an address that failed too often (in this
 * instance's memory, {@link SourceAddressLimiter}) or an account locked for this address or everywhere
 * ({@link LoginAttemptLimiter}) is refused before the password is hashed.
 */
class LimitedAuthenticationProvider implements AuthenticationProvider {

    private final AuthenticationProvider delegate;
    private final LoginAttemptLimiter limiter;
    private final SourceAddressLimiter preAuth;

    LimitedAuthenticationProvider(AuthenticationProvider delegate, LoginAttemptLimiter limiter, SourceAddressLimiter preAuth) {
        this.delegate = delegate;
        this.limiter = limiter;
        this.preAuth = preAuth;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String username = authentication.getName();
        String address = authentication.getDetails() instanceof WebAuthenticationDetails details
            && details.getRemoteAddress() != null ? details.getRemoteAddress() : "unknown";
        if (username == null || username.length() > LoginAttemptLimiter.MAX_USERNAME_CHARS
                || username.chars().anyMatch(Character::isISOControl)) {
            preAuth.take(address);
            throw new BadCredentialsException("bad credentials");
        }
        if (!preAuth.allowed(address)) {
            throw new LockedException("too many failed logins from this address; try again later");
        }
        if (limiter.locked(username, address)) {
            throw new LockedException("too many failed logins; try again later");
        }
        try {
            Authentication result = delegate.authenticate(authentication);
            limiter.succeeded(username, address);
            return result;
        } catch (AuthenticationException e) {
            limiter.failed(username, address);
            preAuth.take(address);
            throw e;
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
