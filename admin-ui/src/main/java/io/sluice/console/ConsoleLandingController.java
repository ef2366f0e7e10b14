package io.sluice.console;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** Entry point of the operator console (its pages arrive with the console issue). */
@Controller
public class ConsoleLandingController {

    @GetMapping({"/", "/console"})
    String console() {
        return "redirect:/console/index.html";
    }
}
