package io.sluice.governance.provider;

import java.util.Objects;

/**
 * Where one provider is and how it is addressed.
 *
 * @param name       its configured name (metrics, logs, the console)
 * @param kind       how it is addressed ({@link ProviderKind})
 * @param baseUrl    e.g. {@code https://api.openai.com/v1}; for Azure the resource, {@code https://NAME.openai.azure.com}
 * @param apiKey     the key (read from the environment; never logged)
 * @param apiVersion Azure's {@code api-version}
 */
public record ProviderEndpoint(String name, ProviderKind kind, String baseUrl, String apiKey, String apiVersion) {

    public ProviderEndpoint {
        Objects.requireNonNull(name, "name");
        kind = kind == null ? ProviderKind.OPENAI_COMPATIBLE : kind;
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("provider '" + name + "' needs a base-url");
        }
        if (kind.azure() && (apiVersion == null || apiVersion.isBlank())) {
            apiVersion = "2024-10-21";
        }
    }

    @Override
    public String toString() {
        return "ProviderEndpoint[" + name + ", " + kind + ", " + baseUrl.replaceAll("//[^@/]*@", "//***@") + "]";
    }
}
