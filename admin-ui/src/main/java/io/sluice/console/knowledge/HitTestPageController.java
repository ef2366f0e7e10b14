package io.sluice.console.knowledge;

import io.sluice.governance.degradation.DegradationLevel;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/** The hit-testing page (read-only: a GET that changes nothing). */
@Controller
class HitTestPageController {

    private final HitTestConsole hitTest;

    HitTestPageController(HitTestConsole hitTest) {
        this.hitTest = hitTest;
    }

    @GetMapping("/console/knowledge/hit-test")
    String hitTest(@RequestParam(required = false) String q, @RequestParam(required = false) String level, Model model) {
        model.addAttribute("q", q);
        model.addAttribute("levels", DegradationLevel.values());
        model.addAttribute("level", level);
        model.addAttribute("evaluation", hitTest.latestEvaluation().orElse(null));
        if (q != null && !q.isBlank()) {
            if (q.length() > 2000) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "question longer than 2000 characters");
            }
            try {
                model.addAttribute("result", hitTest.test(q.strip(), level));
            } catch (IllegalArgumentException e) {
                model.addAttribute("error", e.getMessage());
            }
        }
        return "knowledge-hit-test";
    }
}
