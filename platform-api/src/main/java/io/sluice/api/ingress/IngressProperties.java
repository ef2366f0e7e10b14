package io.sluice.api.ingress;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Ingress limits ({@code sluice.ingress.*}).
 *
 * @param maxRequestBytes largest API request body accepted (default 65536)
 */
@Validated
@ConfigurationProperties("sluice.ingress")
public record IngressProperties(@Min(1024) long maxRequestBytes) {
}
