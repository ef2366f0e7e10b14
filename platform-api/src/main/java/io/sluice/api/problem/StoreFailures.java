package io.sluice.api.problem;

import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisTimeoutException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * The failures that mean "a store cannot answer right now", which the exception handlers answer with 503
 * store-unavailable and Retry-After ({@code ProblemExceptionHandler} for the database, {@link ApiExceptionHandler}
 * for Redis): for code that must name the status before the handlers run, such as the front door's request log.
 */
public final class StoreFailures {

    private StoreFailures() {
    }

    public static boolean unavailable(Throwable failure) {
        return failure instanceof DataAccessResourceFailureException
            || failure instanceof TransientDataAccessResourceException || failure instanceof QueryTimeoutException
            || failure instanceof RedisConnectionException || failure instanceof RedisTimeoutException;
    }
}
