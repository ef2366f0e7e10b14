package io.sluice.api.chat;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * F1 answers kept per question ({@code sluice.chat.faq-memo.*}, docs/chat.md "F1 answers kept per question").
 *
 * @param size questions whose F1 answer this instance keeps (least recently used go first); 0 = none, every F1
 *             answer searches the knowledge
 * @param ttl  longest an answer is kept: how late a knowledge change made on another instance may show here
 */
@ConfigurationProperties("sluice.chat.faq-memo")
public record FaqMemoProperties(@DefaultValue("10000") int size, @DefaultValue("30s") Duration ttl) {

    public FaqMemoProperties {
        if (size < 0 || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("sluice.chat.faq-memo: size must be 0 or more (0 = off), ttl positive; was "
                + size + ", " + ttl);
        }
    }
}
