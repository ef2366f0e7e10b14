package io.sluice.console.audit;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class AuditController {

    private final AuditLog audit;

    AuditController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping("/console/audit")
    String audit(Model model) {
        model.addAttribute("entries", audit.latest(200));
        return "audit";
    }
}
