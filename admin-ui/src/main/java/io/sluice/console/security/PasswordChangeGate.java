package io.sluice.console.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.sluice.console.users.ConsoleUsers;

import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** A user holding a one-time password goes to the password page before anything else. */
@Configuration(proxyBeanMethods = false)
class PasswordChangeGate implements WebMvcConfigurer {

    private final ConsoleUsers users;

    PasswordChangeGate(ConsoleUsers users) {
        this.users = users;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
                    throws Exception {
                Authentication auth = SecurityContextHolder.getContext().getAuthentication();
                if (auth != null && auth.isAuthenticated()
                        && users.find(auth.getName()).map(ConsoleUsers.ConsoleUser::mustChangePassword).orElse(false)) {
                    response.sendRedirect("/console/account/password");
                    return false;
                }
                return true;
            }
        }).addPathPatterns("/console/**").excludePathPatterns("/console/account/**", "/console/assets/**");
    }
}
