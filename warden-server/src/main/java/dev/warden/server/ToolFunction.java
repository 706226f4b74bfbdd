package dev.warden.server;

/**
 * The body of a typed tool that returns a record: the server sends it as structured content
 * (and its JSON text), checked against the output schema generated from {@code R}. Failing works
 * as in {@link ToolHandler}.
 */
@FunctionalInterface
public interface ToolFunction<A, R> {
    R call(A arguments, ToolContext context) throws Exception;
}
