package io.sluice.api.chat;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Online chat ({@code sluice.chat.*}; admission and session have their own sub-keys).
 *
 * @param intentConfidentAbove rules results at least this confident skip the intent enhancers
 * @param fastRoute            gateway route for F2 (FAQ answer polished by the light model); blank = lane default
 * @param fastMaxTokens        completion cap of F2 (further capped by the level's max_tokens)
 * @param historyTurns         earlier turns of the session put into an LLM prompt
 * @param streamTimeout        longest an SSE chat stream may stay open
 * @param streamWorkers        streams being answered at once on this instance (more: 429)
 */
@ConfigurationProperties("sluice.chat")
public record ChatProperties(@DefaultValue("0.7") double intentConfidentAbove, @DefaultValue("") String fastRoute,
        @DefaultValue("256") int fastMaxTokens, @DefaultValue("6") int historyTurns,
        @DefaultValue("60s") java.time.Duration streamTimeout, @DefaultValue("64") int streamWorkers) {
}
