package dev.warden.core.error;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Thrown by a request handler to answer with a JSON-RPC error. The message is trusted and must not
 * contain the caller's input; the renderer adds Warden's symbolic code and a ref in {@code data}.
 */
public final class ProtocolException extends WardenException {

    private final int code;
    private final ErrorCode symbolic;
    private final Optional<ObjectNode> data;
    private final Optional<VisibleFailure> failure;

    public ProtocolException(int code, String message, ErrorCode symbolic) {
        this(code, message, symbolic, Optional.empty());
    }

    /** @param data trusted fields the error's {@code data} must carry (as its specification defines them) */
    public ProtocolException(int code, String message, ErrorCode symbolic, Optional<ObjectNode> data) {
        super(Objects.requireNonNull(message, "message"), null, false);
        if (!JsonRpcError.mayEmit(code)) {
            throw new IllegalArgumentException("code " + code + " is in the legacy band -32000..-32019");
        }
        this.code = code;
        this.symbolic = Objects.requireNonNull(symbolic, "symbolic");
        this.data = Objects.requireNonNull(data, "data").map(ObjectNode::deepCopy);
        this.failure = Optional.empty();
    }

    /**
     * A failure already captured (recorded under its ref, with its retry-after and violations) that
     * must reach the peer as a JSON-RPC error rather than a tool result: an upstream's error passed on
     * by the gateway, say. The renderer takes everything from {@code failure}.
     */
    public ProtocolException(int code, VisibleFailure failure) {
        super(Objects.requireNonNull(failure, "failure").message(), null, false);
        if (!JsonRpcError.mayEmit(code)) {
            throw new IllegalArgumentException("code " + code + " is in the legacy band -32000..-32019");
        }
        this.code = code;
        this.symbolic = failure.code();
        this.data = Optional.empty();
        this.failure = Optional.of(failure);
    }

    /**
     * What the codec or a transport refuses (malformed JSON, an invalid request, an oversized frame):
     * its JSON-RPC code and fixed message; the session that answers records it and adds Warden's code
     * and a ref.
     */
    public static ProtocolException refusing(dev.warden.core.jsonrpc.Decoded.Refusal refusal) {
        return new ProtocolException(refusal.code(), refusal.message(), ErrorCode.VALIDATION_ERROR);
    }

    /** The captured failure this error carries, when it was made from one (its ref already recorded). */
    public Optional<VisibleFailure> failure() {
        return failure;
    }

    /**
     * The ref this error carries already, naming an incident recorded where it was raised: the
     * captured failure's, or a well-formed {@code ref} set in its data. Empty when whoever answers
     * must record it (and so give it a ref).
     */
    public Optional<Ref> ref() {
        return failure.map(VisibleFailure::ref).or(() -> data.map(d -> d.path("ref").asString(""))
                .filter(Ref::isWellFormed).map(Ref::new));
    }

    /**
     * 2026-07-28's UnsupportedProtocolVersionError: {@code data.supported} lists what this side
     * speaks, {@code data.requested} repeats the request's version (the spec requires it) only when
     * it looks like one (at most 32 letters, digits, '.', '-', '_'), so no markup or prose the
     * caller wrote comes back.
     */
    public static ProtocolException unsupportedVersion(String requested, List<String> supported) {
        ObjectNode data = Json.object();
        ArrayNode list = data.putArray("supported");
        supported.forEach(list::add);
        data.put("requested", looksLikeVersion(requested) ? requested : "unrecognized");
        return new ProtocolException(JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version; supported: " + String.join(", ", supported),
                ErrorCode.VALIDATION_ERROR, Optional.of(data));
    }

    /**
     * 2026-07-28's MissingRequiredClientCapabilityError: {@code data.requiredCapabilities} is a
     * capabilities object keyed by what is missing (e.g. {@code {"sampling": {}}}).
     */
    public static ProtocolException missingClientCapability(String capability) {
        ObjectNode data = Json.object();
        data.putObject("requiredCapabilities").putObject(capability);
        return new ProtocolException(JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability: " + capability, ErrorCode.VALIDATION_ERROR, Optional.of(data));
    }

    /** 2026-07-28's HeaderMismatchError: an HTTP header disagrees with the body, or is missing. */
    public static ProtocolException headerMismatch(String message) {
        return new ProtocolException(JsonRpcError.HEADER_MISMATCH, message, ErrorCode.VALIDATION_ERROR);
    }

    static boolean looksLikeVersion(String s) {
        if (s == null || s.isEmpty() || s.length() > 32) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '.' || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A request names a stateless version but its {@code _meta} lacks a field that version requires. */
    public static ProtocolException invalidMeta(String message) {
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, message, ErrorCode.VALIDATION_ERROR);
    }

    /** Fields the error's {@code data} carries besides Warden's code and ref. */
    public Optional<ObjectNode> data() {
        return data.map(ObjectNode::deepCopy);
    }

    public static ProtocolException invalidParams(String message) {
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, message, ErrorCode.VALIDATION_ERROR);
    }

    public static ProtocolException invalidRequest(String message) {
        return new ProtocolException(JsonRpcError.INVALID_REQUEST, message, ErrorCode.VALIDATION_ERROR);
    }

    /** What a request naming a session that does not exist, or no longer, is told (with an HTTP 404). */
    public static ProtocolException sessionNotFound() {
        return new ProtocolException(JsonRpcError.INVALID_REQUEST,
                "Not found: the session does not exist or has ended; initialize a new one", ErrorCode.NOT_FOUND);
    }

    /** -32601 for a method this side does not serve (or does not serve to this peer). */
    public static ProtocolException methodNotFound() {
        return methodNotFound("Method not found");
    }

    /** -32601 with a fixed text saying why (e.g. the peer does not offer a capability). */
    public static ProtocolException methodNotFound(String message) {
        return new ProtocolException(JsonRpcError.METHOD_NOT_FOUND, message, ErrorCode.NOT_FOUND);
    }

    /**
     * -32602 for a name the caller gave that names nothing here ("Unknown tool", "Unknown prompt",
     * "Resource not found"): the caller's value is never repeated in the message.
     */
    public static ProtocolException unknown(String message) {
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, message, ErrorCode.NOT_FOUND);
    }

    /** -32603 for what this side cannot do right now, with the symbolic code saying why. */
    public static ProtocolException internal(String message, ErrorCode symbolic) {
        return new ProtocolException(JsonRpcError.INTERNAL_ERROR, message, symbolic);
    }

    public int code() {
        return code;
    }

    public ErrorCode symbolic() {
        return symbolic;
    }
}
