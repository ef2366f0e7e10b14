package io.sluice.governance.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

/** A Lua script run by SHA (loaded once, reloaded if Redis forgot it), so a call sends no script text. */
public final class LuaScript {

    private final RScript script;
    private final String source;
    private volatile String sha;

    public LuaScript(RedissonClient redisson, String source) {
        this.script = redisson.getScript(StringCodec.INSTANCE);
        this.source = source;
    }

    /** Runs the script; its reply is a list of integers. */
    public List<Long> run(List<Object> keys, Object... args) {
        String current = sha;
        if (current == null) {
            current = load();
        }
        try {
            return script.evalSha(RScript.Mode.READ_WRITE, current, RScript.ReturnType.MULTI, keys, args);
        } catch (RedisException e) {
            if (String.valueOf(e.getMessage()).contains("NOSCRIPT")) {
                return script.evalSha(RScript.Mode.READ_WRITE, load(), RScript.ReturnType.MULTI, keys, args);
            }
            throw e;
        }
    }

    /**
     * Runs the script without waiting (for bookkeeping whose result nobody needs now: settling,
     * counting). Failures reach {@code onFailure}; a script Redis forgot is reloaded and run again.
     */
    public void runAsync(List<Object> keys, Consumer<Throwable> onFailure, Object... args) {
        callAsync(keys, args).whenComplete((reply, error) -> {
            if (error != null) {
                onFailure.accept(error instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause() : error);
            }
        });
    }

    /**
     * Runs the script without waiting; its reply (a list of integers) completes the stage, or its failure. A script
     * Redis forgot is loaded again (without blocking Redisson's thread) and run once more.
     */
    public CompletionStage<List<Long>> callAsync(List<Object> keys, Object... args) {
        String current = sha;
        CompletionStage<String> loaded = current != null ? CompletableFuture.completedFuture(current) : loadAsync();
        return loaded.thenCompose(s -> evalShaAsync(s, keys, args))
            .exceptionallyCompose(error -> String.valueOf(error.getMessage()).contains("NOSCRIPT")
                ? loadAsync().thenCompose(s -> evalShaAsync(s, keys, args))
                : CompletableFuture.failedFuture(error));
    }

    private CompletionStage<List<Long>> evalShaAsync(String loadedSha, List<Object> keys, Object... args) {
        return script.evalShaAsync(RScript.Mode.READ_WRITE, loadedSha, RScript.ReturnType.MULTI, keys, args);
    }

    private CompletionStage<String> loadAsync() {
        return script.scriptLoadAsync(source).thenApply(loadedSha -> {
            sha = loadedSha;
            return loadedSha;
        });
    }

    private String load() {
        sha = script.scriptLoad(source);
        return sha;
    }
}
