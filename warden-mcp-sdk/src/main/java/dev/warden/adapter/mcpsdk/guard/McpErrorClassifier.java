package dev.warden.adapter.mcpsdk.guard;

import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import dev.warden.core.jsonrpc.JsonRpcError;
import io.modelcontextprotocol.spec.McpError;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link McpError} (thrown by the SDK, its transports or a handler) by its JSON-RPC code: the
 * code is the structure the server chose, evidence of what kind of failure it is; the message and
 * {@code data} are untrusted (often an exception's text) and go to the incident only, so the peer
 * gets the code's fixed name. Any other code stays an internal error.
 */
public final class McpErrorClassifier implements FailureClassifier {

    public static final McpErrorClassifier INSTANCE = new McpErrorClassifier();

    private McpErrorClassifier() {
    }

    @Override
    public Optional<ToolFailure> classify(Throwable throwable) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = throwable; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof McpError e && e.getJsonRpcError() != null && e.getJsonRpcError().code() != null) {
                return forCode(e.getJsonRpcError().code());
            }
        }
        return Optional.empty();
    }

    private static Optional<ToolFailure> forCode(int code) {
        return Optional.ofNullable(switch (code) {
            case JsonRpcError.PARSE_ERROR -> invalid("Parse error");
            case JsonRpcError.INVALID_REQUEST -> invalid("Invalid request");
            case JsonRpcError.INVALID_PARAMS -> invalid("Invalid params");
            case JsonRpcError.METHOD_NOT_FOUND -> new NotFoundFailure("Method not found");
            case JsonRpcError.MCP_RESOURCE_NOT_FOUND -> new NotFoundFailure("Resource not found");
            default -> null;
        });
    }

    private static ToolFailure invalid(String message) {
        return new ValidationFailure(List.of(new Violation("", message)));
    }
}
