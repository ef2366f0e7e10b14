package io.sluice.api.auth;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

/**
 * Creates the demo client on the first start of the embedded default, so the README's curl works
 * with no setup. A random key is printed ONCE, right here: only its hash is stored, so it cannot be
 * shown again (create another client to get another key). A key given in the configuration
 * ({@code SLUICE_DEMO_API_KEY}) is never printed.
 */
public class DemoClientBootstrap {

    static final String DEMO_CLIENT = "demo";
    private static final Logger log = LoggerFactory.getLogger(DemoClientBootstrap.class);

    private final ApiKeys keys;
    private final AuthProperties properties;
    private final Environment env;

    public DemoClientBootstrap(ApiKeys keys, AuthProperties properties, Environment env) {
        this.keys = keys;
        this.properties = properties;
        this.env = env;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void onReady() {
        if (!wanted()) {
            return;
        }
        var existing = keys.prefixOf(DEMO_CLIENT);
        if (existing.isPresent()) {
            log.info("API: demo client exists (key {}…); its key was shown once on first start", existing.get());
            return;
        }
        String port = env.getProperty("local.server.port", env.getProperty("server.port", "8080"));
        String configured = properties.demoKey();
        if (configured != null && !configured.isBlank()) {
            IssuedKey issued = keys.createWithKey(DEMO_CLIENT, ClientTier.STANDARD, configured.trim(), scopes());
            log.info("API: demo client created with the configured key ({}…), scopes {}", issued.client().keyPrefix(),
                ApiScope.wire(issued.client().scopes()));
            return;
        }
        IssuedKey issued = keys.create(DEMO_CLIENT, ClientTier.STANDARD, scopes());
        // the one and only time this key is shown: it is stored as a SHA-256 hash
        log.warn("""

            ==== Demo API key (shown ONCE; only its hash is stored) ====
              {}
            Try it:
              curl -s -H 'Authorization: Bearer {}' -H 'Content-Type: application/json' \\
                   -d '{"userId":"u1","message":"退款多久到账"}' http://localhost:{}/api/v1/chat
            ============================================================
            """, issued.key(), issued.key(), port);
    }

    /** The demo's scopes: chat + openai unless {@code sluice.ingress.auth.demo-scopes} says otherwise. */
    private java.util.Set<ApiScope> scopes() {
        return ApiScope.parse(properties.demoScopes());
    }

    private boolean wanted() {
        return switch (properties.demoClient()) {
            case NEVER -> false;
            case ALWAYS -> true;
            case AUTO -> {
                String url = env.getProperty("sluice.db.url");
                yield url == null || url.isBlank();
            }
        };
    }
}
