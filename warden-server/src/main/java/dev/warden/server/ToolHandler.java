package dev.warden.server;

/**
 * The body of a tool. Return a {@link ToolResult}; throw (or return) a
 * {@link dev.warden.core.error.ToolFailure} for a failure the caller should see. Any other exception
 * is treated as a bug: the caller sees INTERNAL_ERROR and a ref, the operator sees the stack.
 */
@FunctionalInterface
public interface ToolHandler {
    ToolResult call(ToolCall call) throws Exception;
}
