package io.sluice.console.clients;

import java.security.Principal;

import java.util.List;

import io.sluice.api.auth.ApiScope;
import io.sluice.api.auth.ClientTier;
import io.sluice.api.auth.IssuedKey;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** API clients (admins only: see ConsoleSecurityConfiguration). */
@Controller
class ClientsController {

    private final ApiClientAdmin clients;

    ClientsController(ApiClientAdmin clients) {
        this.clients = clients;
    }

    @GetMapping("/console/clients")
    String list(Model model) {
        model.addAttribute("clients", clients.all());
        model.addAttribute("tiers", ClientTier.values());
        model.addAttribute("scopes", ApiScope.wireNames());
        model.addAttribute("defaultScopes", ApiScope.wire(ApiScope.DEMO));
        return "clients";
    }

    /** The new key is rendered straight into this response (no redirect, no flash, no session): shown once. */
    @PostMapping("/console/clients")
    String create(@RequestParam String name, @RequestParam String tier,
            @RequestParam(name = "scopes", required = false) List<String> scopes, Principal actor, Model model) {
        try {
            IssuedKey issued = clients.create(actor.getName(), name, tier, scopes == null ? List.of() : scopes);
            model.addAttribute("issuedName", issued.client().name());
            model.addAttribute("issuedKey", issued.key());
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
        }
        return list(model);
    }

    @PostMapping("/console/clients/{id}/revoke")
    String revoke(@PathVariable long id, Principal actor, RedirectAttributes redirect) {
        try {
            clients.revoke(actor.getName(), id);
            redirect.addFlashAttribute("notice", "Client " + id + " revoked: its key is refused from now on.");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/clients";
    }

    @PostMapping("/console/clients/{id}/scopes")
    String scopes(@PathVariable long id, @RequestParam(name = "scopes", required = false) List<String> scopes,
            Principal actor, RedirectAttributes redirect) {
        try {
            clients.setScopes(actor.getName(), id, scopes == null ? List.of() : scopes);
            redirect.addFlashAttribute("notice", "Scopes of client " + id + " changed.");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/clients";
    }

    @PostMapping("/console/clients/{id}/tier")
    String tier(@PathVariable long id, @RequestParam String tier, Principal actor, RedirectAttributes redirect) {
        try {
            clients.setTier(actor.getName(), id, tier);
            redirect.addFlashAttribute("notice", "Client " + id + " is now " + tier + ".");
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/clients";
    }
}
