package dev.warden.adapter.mcpsdk.guard;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The SDK's JSON mapper with the two things its transports write that carry exception text or the
 * caller's input replaced by Warden's error: an exception object (the servlet transports'
 * {@code responseError} serializes the {@code McpError} itself, stack and all: java-sdk #577,
 * #955) and an error response the SDK made itself (from an exception: its message, in 2.0 the
 * cause chain in {@code data}; for an unknown tool: its name in {@code data}).
 * Reads are the delegate's; so is every conversion, except a request's params that do not fit.
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
            case JSONRPCResponse response when response.error() != null && !failures.ours(response.error()) ->
                    new JSONRPCResponse(response.jsonrpc(), response.id(), null, failures.sdkAnswer(response.error()));
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
        return params(() -> delegate.convertValue(fromValue, type), type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return params(() -> delegate.convertValue(fromValue, type), type.getType());
    }

    /**
     * The server converts each request's params to the SDK's request record before any handler
     * runs (given this mapper with {@code McpServer...jsonMapper(...)}): params that do not fit
     * ({@code "arguments":"oops"}) are the caller's mistake, so they fail as the SDK's invalid
     * params (-32602), not as an exception whose text would be a -32603. Other conversions are the
     * delegate's, failures and all.
     */
    private static <T> T params(Supplier<T> conversion, Type type) {
        try {
            return conversion.get();
        } catch (RuntimeException e) {
            if (e instanceof McpError || !(type instanceof Class<?> c && McpSchema.Request.class.isAssignableFrom(c))) {
                throw e;
            }
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message("Invalid params").build();
        }
    }
}
