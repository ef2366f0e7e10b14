package io.sluice.api.session;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Session context ({@code sluice.chat.session.*}).
 *
 * @param ttl            how long an idle session's turns stay in Redis
 * @param maxTurns       messages kept per session in Redis (user and assistant each count one)
 * @param keyPrefix      Redis key prefix
 * @param digestSessions sessions whose compact digest (last turns, facts) this instance keeps in memory, for
 *                       continuity while Redis is down (least recently used go first); 0 = none
 * @param digestChars    longest text of one turn in the digest (longer turns are cut)
 * @param maxFacts       key facts kept per session (the oldest go first)
 * @param recallFacts    facts matching the message (BM25) given to the answer
 */
@ConfigurationProperties("sluice.chat.session")
public record SessionProperties(@DefaultValue("30m") Duration ttl, @DefaultValue("12") int maxTurns,
        @DefaultValue("sluice:session:") String keyPrefix, @DefaultValue("2000") int digestSessions,
        @DefaultValue("200") int digestChars, @DefaultValue("50") int maxFacts, @DefaultValue("3") int recallFacts) {

    @ConstructorBinding
    public SessionProperties {
        if (maxTurns < 1 || digestSessions < 0 || digestChars < 20 || maxFacts < 1 || recallFacts < 0) {
            throw new IllegalArgumentException("sluice.chat.session: max-turns and max-facts must be at least 1, "
                + "digest-sessions and recall-facts at least 0, digest-chars at least 20");
        }
    }

    public SessionProperties(Duration ttl, int maxTurns, String keyPrefix) {
        this(ttl, maxTurns, keyPrefix, 2000, 200, 50, 3);
    }
}
