package io.sluice.api.ingress;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Ingress limits ({@code sluice.ingress.*}).
 *
 * @param maxRequestBytes largest API request body accepted (default 65536)
 * @param maxUploadBytes  largest document upload ({@code /api/v1/knowledge/documents}, default 8 MiB)
 */
@Validated
@ConfigurationProperties("sluice.ingress")
public record IngressProperties(@Min(1024) long maxRequestBytes, Long maxUploadBytes) {

    public IngressProperties {
        maxUploadBytes = maxUploadBytes == null ? 8L * 1024 * 1024 : maxUploadBytes;
        if (maxUploadBytes < maxRequestBytes) {
            throw new IllegalArgumentException("sluice.ingress.max-upload-bytes must be at least max-request-bytes");
        }
    }
}
