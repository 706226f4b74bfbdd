package dev.warden.adapter.mcpsdk.guard;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The SDK's JSON mapper with the two things its transports write that carry exception text
 * replaced by Warden's error: an exception object (the servlet transports' {@code responseError}
 * serializes the {@code McpError} itself, stack and all: java-sdk #577, #955) and an internal
 * error the SDK made from an exception (its message; in 2.0 the cause chain in {@code data}).
 * Everything else, and every read, is the delegate's.
 */
public final class GuardedJsonMapper implements McpJsonMapper {

    private final McpJsonMapper delegate;
    private final Failures failures;

    public GuardedJsonMapper(McpJsonMapper delegate, Failures failures) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(guarded(value, failures));
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(guarded(value, failures));
    }

    /**
     * What is written in place of {@code value}: Warden's error body for an exception object, the
     * response with Warden's error for an internal error the SDK made; any other value itself.
     */
    public static Object guarded(Object value, Failures failures) {
        return switch (value) {
            // No request id is known where a transport writes its error body; the SDK's response
            // record refuses a null id, so the body is written as a map.
            case Throwable thrown -> body(failures.transportError(thrown));
            case JSONRPCResponse response when response.error() != null
                    && Objects.equals(response.error().code(), McpSchema.ErrorCodes.INTERNAL_ERROR)
                    && !failures.ours(response.error()) ->
                    new JSONRPCResponse(response.jsonrpc(), response.id(), null, failures.replaced(response.error()));
            case null, default -> value;
        };
    }

    private static Map<String, Object> body(JSONRPCError error) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        body.put("id", null);
        body.put("error", error);
        return body;
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return delegate.convertValue(fromValue, type);
    }
}
