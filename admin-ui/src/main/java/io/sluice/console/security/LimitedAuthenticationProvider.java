package io.sluice.console.security;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;

/** Password authentication behind the login-attempt limiter. */
class LimitedAuthenticationProvider implements AuthenticationProvider {

    private final AuthenticationProvider delegate;
    private final LoginAttemptLimiter limiter;

    LimitedAuthenticationProvider(AuthenticationProvider delegate, LoginAttemptLimiter limiter) {
        this.delegate = delegate;
        this.limiter = limiter;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String username = authentication.getName();
        if (limiter.locked(username)) {
            throw new LockedException("too many failed logins; try again later");
        }
        try {
            Authentication result = delegate.authenticate(authentication);
            limiter.succeeded(username);
            return result;
        } catch (AuthenticationException e) {
            limiter.failed(username);
            throw e;
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
