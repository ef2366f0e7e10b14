package io.sluice.app.runtime;

import io.sluice.app.runtime.DatabaseConfiguration.DatabaseMode;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Tells the operator where things are once the platform is ready. */
@Component
class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    private final Environment env;
    private final DatabaseMode mode;

    StartupReport(Environment env, DatabaseMode mode) {
        this.env = env;
        this.mode = mode;
    }

    @EventListener(ApplicationReadyEvent.class)
    void report() {
        String base = "http://localhost:" + env.getProperty("local.server.port", env.getProperty("server.port", "8080"));
        String management = "http://" + env.getProperty("management.server.address", "127.0.0.1") + ":"
            + env.getProperty("local.management.port", env.getProperty("management.server.port", "8081"));
        log.info("""

            Sluice is ready ({} mode)
              Chat API : POST {}/api/v1/chat
              Console  : {}/console
              Health   : {}/actuator/health  (management port, loopback by default)
              Knowledge: {}
            """, mode.embedded() ? "embedded" : "external", base, base, management,
            env.getProperty("sluice.knowledge.sample.load-on-first-start", Boolean.class, true)
                ? "on a first start the sample knowledge base loads in the background (FAQ first, then documents);"
                    + " progress in this log and on the console dashboard"
                : "sample loading is off (sluice.knowledge.sample.load-on-first-start=false)");
    }
}
