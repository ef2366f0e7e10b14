package io.sluice.console;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
public class ConsoleLandingController {

    @GetMapping("/")
    String root() {
        return "redirect:/console";
    }

    @GetMapping("/login")
    String login() {
        return "login";
    }
}
