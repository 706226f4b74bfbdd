package dev.warden.adapter.mcpsdk.guard;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.ProtocolVersion;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.util.Optional;

/**
 * The refusals the SDK makes itself (an unknown tool, a session it does not know, a message it
 * cannot read), each as Warden's own server answers it: the caller's mistake, with a fixed text.
 * They are known by their JSON-RPC code and the SDK's fixed words, never by what the caller sent;
 * the SDK's text and {@code data} repeat the caller's input ("Tool not found: x", a session id),
 * so neither is passed on.
 */
final class SdkRefusals {

    /** The SDK's literal message for a tool it does not have (the name goes in its {@code data}). */
    static final String UNKNOWN_TOOL = "Unknown tool: invalid_tool_name";
    /** How the SDK's HTTP transports begin a 404 for a session id they do not know (a -32603). */
    static final String SESSION_NOT_FOUND = "Session not found";

    private SdkRefusals() {
    }

    /**
     * An error a transport writes with an HTTP status, before any request is handled: a session it
     * does not know, or a message it refuses (unreadable, the wrong media type, no session header).
     */
    static Optional<ProtocolException> ofTransport(JSONRPCError error) {
        if (error.code() == null) {
            return Optional.empty();
        }
        int code = error.code();
        if (code == JsonRpcError.INTERNAL_ERROR && error.message() != null
                && error.message().startsWith(SESSION_NOT_FOUND)) {
            return Optional.of(ProtocolException.sessionNotFound());
        }
        return switch (code) {
            case JsonRpcError.PARSE_ERROR, JsonRpcError.INVALID_REQUEST, JsonRpcError.METHOD_NOT_FOUND,
                    JsonRpcError.INVALID_PARAMS -> Optional.of(ProtocolException.invalidRequest("Invalid request"));
            default -> Optional.empty();
        };
    }

    /**
     * An error response the SDK wrote to a request, other than its -32603 (an exception it caught,
     * see {@link Failures#replaced}): empty for a code it has no refusal of.
     */
    static Optional<ProtocolException> ofAnswer(JSONRPCError error) {
        if (error.code() == null) {
            return Optional.empty();
        }
        int code = error.code();
        if (code == resourceNotFoundCode()) {
            return Optional.of(new ProtocolException(code, "Resource not found", ErrorCode.NOT_FOUND));
        }
        return switch (code) {
            case JsonRpcError.INVALID_PARAMS -> Optional.of(UNKNOWN_TOOL.equals(error.message())
                    ? ProtocolException.unknown("Unknown tool") : ProtocolException.invalidParams("Invalid params"));
            case JsonRpcError.METHOD_NOT_FOUND -> Optional.of(ProtocolException.methodNotFound());
            case JsonRpcError.PARSE_ERROR, JsonRpcError.INVALID_REQUEST ->
                    Optional.of(ProtocolException.invalidRequest("Invalid request"));
            default -> Optional.empty();
        };
    }

    /**
     * MCP's code for an unknown resource, by Warden's one rule ({@link ProtocolVersion}). The SDK
     * tells a handler nothing of the version its session negotiated, and speaks no version where the
     * rule differs (the stateless 2026-07-28), so it is the newest session-based version's, which is
     * what Warden's own server answers when it knows no version either.
     */
    static int resourceNotFoundCode() {
        return ProtocolVersion.latestSessionBased().resourceNotFoundCode();
    }
}
