package io.sluice.api.chat;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The F2→F1 shadow check ({@code sluice.chat.shadow-check.*}).
 *
 * @param enabled     false = F2 answers go out unchecked (and stream token by token)
 * @param entryMargin a text is "about" a FAQ entry only when the snapshot ranks that entry at least this far
 *                    ahead of the next one (and above the FAQ relevance bar)
 */
@Validated
@ConfigurationProperties("sluice.chat.shadow-check")
public record ShadowCheckProperties(@DefaultValue("true") boolean enabled,
        @DefaultValue("0.05") @DecimalMin("0.0") @DecimalMax("1.0") double entryMargin) {
}
