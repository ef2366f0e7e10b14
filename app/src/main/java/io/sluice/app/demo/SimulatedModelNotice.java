package io.sluice.app.demo;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Says loudly, once ready, that the LLM is the simulated model of {@code scripts/run.sh --demo-llm}
 * ({@code sluice.llm.simulated}), so no one takes its canned answers for a real model's.
 */
@Component
class SimulatedModelNotice {

    private static final Logger log = LoggerFactory.getLogger(SimulatedModelNotice.class);

    private final Environment env;

    SimulatedModelNotice(Environment env) {
        this.env = env;
    }

    @EventListener(ApplicationReadyEvent.class)
    void report() {
        if (env.getProperty("sluice.llm.simulated", Boolean.class, false)) {
            log.warn("""

                LLM: SIMULATED MODEL at {} (scripts/run.sh --demo-llm): canned answers, not a real model.
                     Tiers F4-F2 answer through it; the console shows a 'simulated model' banner on every page.
                """, env.getProperty("sluice.llm.base-url", ""));
        }
    }
}
