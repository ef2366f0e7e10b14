package io.sluice.console.users;

import java.security.Principal;

import io.sluice.console.audit.AuditLog;
import io.sluice.console.security.LoginAttemptLimiter;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Console users (admins only) and each user's own password. */
@Controller
class UsersController {

    private final ConsoleUsers users;
    private final AuditLog audit;
    private final LoginAttemptLimiter loginLimiter;

    UsersController(ConsoleUsers users, AuditLog audit, LoginAttemptLimiter loginLimiter) {
        this.users = users;
        this.audit = audit;
        this.loginLimiter = loginLimiter;
    }

    @GetMapping("/console/users")
    String list(Model model) {
        var all = users.all();
        model.addAttribute("users", all);
        model.addAttribute("locked", all.stream().map(ConsoleUsers.ConsoleUser::username)
            .filter(loginLimiter::lockedAnywhere).collect(java.util.stream.Collectors.toSet()));
        model.addAttribute("roles", ConsoleRole.values());
        return "users";
    }

    @PostMapping("/console/users")
    String create(@RequestParam String username, @RequestParam String password, @RequestParam ConsoleRole role,
            Principal actor, Model model, RedirectAttributes redirect) {
        try {
            users.create(username, password, role, true);
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            model.addAttribute("username", username);
            return list(model);
        }
        audit.record(actor.getName(), "user.create", username, null, "role=" + role);
        redirect.addFlashAttribute("notice", "User '" + username + "' created; they choose a new password at first login.");
        return "redirect:/console/users";
    }

    @PostMapping("/console/users/{username}/role")
    String setRole(@PathVariable String username, @RequestParam ConsoleRole role, Principal actor,
            RedirectAttributes redirect) {
        String before = users.find(username).map(user -> "role=" + user.role()).orElse(null);
        try {
            users.setRole(username, role);
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
            return "redirect:/console/users";
        }
        audit.record(actor.getName(), "user.role", username, before, "role=" + role);
        redirect.addFlashAttribute("notice", "Role of '" + username + "' is now " + role + ".");
        return "redirect:/console/users";
    }

    /** The way out of a lockout: clears the user's failed-login counts from every address at once. */
    @PostMapping("/console/users/{username}/unlock")
    String unlock(@PathVariable String username, Principal actor, RedirectAttributes redirect) {
        if (users.find(username).isEmpty()) {
            redirect.addFlashAttribute("error", "there is no console user of that name");
            return "redirect:/console/users";
        }
        long cleared = loginLimiter.unlock(username);
        audit.record(actor.getName(), "user.unlock", username, cleared > 0 ? "locked or counting" : "not locked",
            "failed-login counts cleared");
        redirect.addFlashAttribute("notice", "'" + username + "' is unlocked and can log in now.");
        return "redirect:/console/users";
    }

    @GetMapping("/console/account/password")
    String passwordForm() {
        return "password";
    }

    @PostMapping("/console/account/password")
    String changePassword(@RequestParam(required = false) String current, @RequestParam String password,
            @RequestParam String confirmation, Principal actor, Model model, RedirectAttributes redirect) {
        if (!password.equals(confirmation)) {
            model.addAttribute("error", "the two passwords differ");
            return "password";
        }
        if (!users.passwordMatches(actor.getName(), current)) {
            // a session left open (or stolen) must not be enough to take over the account
            model.addAttribute("error", "the current password is not right");
            return "password";
        }
        try {
            users.changePassword(actor.getName(), password);
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            return "password";
        }
        audit.record(actor.getName(), "user.password", actor.getName(), null, "changed");
        redirect.addFlashAttribute("notice", "Password changed.");
        return "redirect:/console";
    }
}
