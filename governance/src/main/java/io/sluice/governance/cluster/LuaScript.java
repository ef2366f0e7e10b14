package io.sluice.governance.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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
    public void runAsync(List<Object> keys, java.util.function.Consumer<Throwable> onFailure, Object... args) {
        String current = sha;
        if (current == null) {
            current = load();
        }
        script.<List<Long>>evalShaAsync(RScript.Mode.READ_WRITE, current, RScript.ReturnType.MULTI, keys, args)
            .whenComplete((reply, error) -> {
                if (error == null) {
                    return;
                }
                if (String.valueOf(error.getMessage()).contains("NOSCRIPT")) {
                    script.<List<Long>>evalShaAsync(RScript.Mode.READ_WRITE, load(), RScript.ReturnType.MULTI, keys, args)
                        .whenComplete((r, e) -> {
                            if (e != null) {
                                onFailure.accept(e);
                            }
                        });
                } else {
                    onFailure.accept(error);
                }
            });
    }

    /**
     * Runs the script without waiting; its reply (a list of integers) completes the stage, or its failure. A script
     * Redis forgot is loaded again (without blocking Redisson's thread) and run once more.
     */
    public CompletionStage<List<Long>> callAsync(List<Object> keys, Object... args) {
        String current = sha;
        CompletionStage<String> loaded = current != null
            ? CompletableFuture.completedFuture(current)
            : script.scriptLoadAsync(source).thenApply(this::loaded);
        return loaded.thenCompose(s -> script.<List<Long>>evalShaAsync(RScript.Mode.READ_WRITE, s,
                RScript.ReturnType.MULTI, keys, args))
            .handle((reply, error) -> {
                if (error == null) {
                    return CompletableFuture.completedFuture(reply);
                }
                if (String.valueOf(error.getMessage()).contains("NOSCRIPT")) {
                    return script.scriptLoadAsync(source).thenApply(this::loaded).thenCompose(s -> script
                        .<List<Long>>evalShaAsync(RScript.Mode.READ_WRITE, s, RScript.ReturnType.MULTI, keys, args));
                }
                return CompletableFuture.<List<Long>>failedFuture(error);
            })
            .thenCompose(stage -> stage);
    }

    private String loaded(String loadedSha) {
        sha = loadedSha;
        return loadedSha;
    }

    private String load() {
        sha = script.scriptLoad(source);
        return sha;
    }
}
