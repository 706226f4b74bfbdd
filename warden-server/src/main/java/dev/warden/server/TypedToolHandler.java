package dev.warden.server;

/**
 * The body of a typed tool: the arguments arrive validated against the schema generated from
 * {@code A} and bound to it. Failing works as in {@link ToolHandler}.
 */
@FunctionalInterface
public interface TypedToolHandler<A> {
    ToolResult call(A arguments, ToolContext context) throws Exception;
}
