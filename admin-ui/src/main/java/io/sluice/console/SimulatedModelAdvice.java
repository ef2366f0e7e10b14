package io.sluice.console;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Whether the LLM is the simulated model of {@code scripts/run.sh --demo-llm}: every page's header says so. */
@ControllerAdvice(basePackages = "io.sluice.console")
class SimulatedModelAdvice {

    private final boolean simulated;

    SimulatedModelAdvice(Environment env) {
        this.simulated = env.getProperty("sluice.llm.simulated", Boolean.class, false);
    }

    @ModelAttribute("simulatedModel")
    boolean simulatedModel() {
        return simulated;
    }
}
