package dev.warden.telemetry;

/**
 * Which tool and prompt names the server registered: only those name a span ({@code "tools/call
 * refund"}) and carry {@code gen_ai.tool.name}/{@code gen_ai.prompt.name}, so a caller inventing
 * names makes no new span name or metric series. A server answers from its registry, a gateway from
 * its merged catalog, a client from what the server listed. {@link #NONE} unless told.
 */
@FunctionalInterface
public interface KnownTargets {

    /** No name is known: spans are named by the method alone. */
    KnownTargets NONE = (method, name) -> false;

    /** Whether {@code name} is registered for {@code method} ({@code tools/call} or {@code prompts/get}). */
    boolean known(String method, String name);
}
