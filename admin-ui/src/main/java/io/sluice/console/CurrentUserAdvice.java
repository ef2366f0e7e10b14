package io.sluice.console;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** The signed-in user's role for the page header (authorities also hold factors; show only the role). */
@ControllerAdvice(basePackages = "io.sluice.console")
class CurrentUserAdvice {

    @ModelAttribute("currentRole")
    String currentRole(Authentication authentication) {
        if (authentication == null) {
            return "";
        }
        return authentication.getAuthorities().stream()
            .map(GrantedAuthority::getAuthority)
            .filter(authority -> authority != null && authority.startsWith("ROLE_"))
            .map(authority -> authority.substring(5).toLowerCase(java.util.Locale.ROOT))
            .findFirst()
            .orElse("");
    }
}
