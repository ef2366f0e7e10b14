package io.sluice.mock;

/**
 * What the mock saw, as one consistent snapshot.
 *
 * @param requests          chat-completion requests received
 * @param served            answered 200 with a well-formed body (plain or complete stream)
 * @param rejected          answered 429 (forced, concurrency cap or TPM cap)
 * @param errors            answered 5xx
 * @param malformed         answered 200 with an unparsable body
 * @param hung              requests that were held without an answer
 * @param cut               streams cut midway on purpose
 * @param disconnected      streams and hung calls the client went away from
 * @param inFlight          requests being handled now
 * @param maxConcurrentSeen most requests in flight at once (counted before the concurrency cap)
 * @param promptTokens      prompt tokens of admitted requests
 * @param completionTokens  completion tokens of admitted requests
 */
public record MockCounters(long requests, long served, long rejected, long errors, long malformed, long hung, long cut,
        long disconnected, int inFlight, int maxConcurrentSeen, long promptTokens, long completionTokens) {

    public long tokens() {
        return promptTokens + completionTokens;
    }
}
