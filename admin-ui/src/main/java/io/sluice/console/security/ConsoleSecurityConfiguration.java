package io.sluice.console.security;

import java.time.Duration;

import io.sluice.api.ApiPaths;
import io.sluice.api.ingress.SourceAddressLimiter;
import io.sluice.console.users.ConsoleUsers;

import org.redisson.api.RedissonClient;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.header.HeaderWriterFilter;

/**
 * Two filter chains: machine endpoints (API, OpenAI-compatible front door, actuator) authenticate
 * with API keys in their own filter and carry no cookies, so no CSRF there; the console is form
 * login with CSRF on every form, roles checked on the server.
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleSecurityConfiguration {

    @Bean
    PasswordEncoder passwordEncoder() {
        return new BCryptPasswordEncoder();
    }

    /**
     * No observation per security filter: it wrapped each of a request's dozen filters in its own
     * observation, on every API call. {@code http.server.requests} still times every request.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /** Spring Security's strict firewall with the same text rules, checked without regular expressions. */
    @Bean
    HttpFirewall httpFirewall() {
        return FirewallTextRules.strictFirewall();
    }

    @Bean
    WebSecurityCustomizer strictFirewallWithoutRegularExpressions(HttpFirewall httpFirewall) {
        return web -> web.httpFirewall(httpFirewall);
    }

    /** 5 failures per account and address, 50 per account from anywhere, within 5 minutes. */
    @Bean
    LoginAttemptLimiter loginAttemptLimiter(RedissonClient redisson) {
        return new LoginAttemptLimiter(redisson, 5, 50, Duration.ofMinutes(5), "sluice:console:login:");
    }

    /** First of all, before the slow-body guard or Spring Security read the login body. */
    @Bean
    FilterRegistrationBean<LoginGuardFilter> loginGuardFilter(SourceAddressLimiter preAuthLimiter) {
        FilterRegistrationBean<LoginGuardFilter> registration = new FilterRegistrationBean<>(new LoginGuardFilter(preAuthLimiter));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 4);
        return registration;
    }

    @Bean
    UserDetailsService consoleUserDetails(ConsoleUsers users) {
        return username -> users.find(username)
            .map(user -> User.withUsername(user.username())
                .password(user.passwordHash())
                .roles(user.role().name())
                .disabled(user.disabled())
                .build())
            .orElseThrow(() -> new UsernameNotFoundException("no such console user"));
    }

    /**
     * The machine endpoints' identity is the API key ({@code ApiKeyFilter}, ahead of this chain) and each
     * endpoint checks its key's scopes, so this chain keeps only what such a request uses: the security
     * headers. What a browser session needs — logout, the anonymous principal, the servlet-API request wrapper,
     * the saved request, session management, a security context, the translation of access-denied exceptions
     * into a login — is left out, and so is an authorization step that could only permit every request: each
     * was a filter (and a request attribute set and removed, and two frames of every waiting call's stack) on
     * every API call.
     */
    @Bean
    @Order(1)
    SecurityFilterChain machineEndpoints(HttpSecurity http) throws Exception {
        http.securityMatcher(ApiPaths.MACHINE_PATTERNS.toArray(String[]::new))
            .csrf(csrf -> csrf.disable())
            .sessionManagement(session -> session.disable())
            .securityContext(context -> context.disable())
            .exceptionHandling(exceptions -> exceptions.disable())
            .requestCache(cache -> cache.disable())
            // the security headers are the same for every API answer: written before the endpoint runs, so the
            // response is not wrapped to catch its commit (a layer under every header set and every byte written)
            .headers(headers -> headers.addObjectPostProcessor(new ObjectPostProcessor<HeaderWriterFilter>() {
                @Override
                public <O extends HeaderWriterFilter> O postProcess(O filter) {
                    filter.setShouldWriteHeadersEagerly(true);
                    return filter;
                }
            }))
            .logout(logout -> logout.disable())
            .anonymous(anonymous -> anonymous.disable())
            .servletApi(servletApi -> servletApi.disable());
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain console(HttpSecurity http, UserDetailsService users, PasswordEncoder encoder,
            LoginAttemptLimiter limiter, SourceAddressLimiter preAuthLimiter) throws Exception {
        DaoAuthenticationProvider passwordCheck = new DaoAuthenticationProvider(users);
        passwordCheck.setPasswordEncoder(encoder);
        http.authenticationManager(new ProviderManager(
                new LimitedAuthenticationProvider(passwordCheck, limiter, preAuthLimiter)))
            .authorizeHttpRequests(requests -> requests
                .requestMatchers("/login", "/webjars/**", "/console/assets/**", "/error", "/favicon.ico").permitAll()
                .requestMatchers("/console/users/**", "/console/clients/**").hasRole("ADMIN")
                .requestMatchers("/console/account/**").authenticated()
                // every other change to the live platform: operators and admins only
                // providers and routes are the gateway's configuration: admins only, like API keys
                .requestMatchers(HttpMethod.POST, "/console/gateway/**").hasRole("ADMIN")
                .requestMatchers(HttpMethod.POST, "/console/**").hasAnyRole("OPERATOR", "ADMIN")
                .anyRequest().authenticated())
            .formLogin(form -> form.loginPage("/login").defaultSuccessUrl("/console", true).permitAll())
            .logout(logout -> logout.logoutUrl("/logout").logoutSuccessUrl("/login?logout"))
            .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'")));
        return http.build();
    }
}
