package dev.warden.telemetry;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.telemetry.internal.WireOutcomes;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * How an operation ended, as the peer saw it: nothing in here is text the peer was not given.
 * {@link McpOperation#end} turns each kind into attributes and a span status by an exhaustive switch.
 */
public sealed interface Outcome {

    /** A result that is no error. */
    record Ok() implements Outcome {
    }

    /** A {@code CallToolResult} with {@code isError: true}, with Warden's code and ref when it carried them. */
    record ToolError(Optional<ErrorCode> code, Optional<Ref> ref) implements Outcome {
        public ToolError {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(ref, "ref");
        }
    }

    /**
     * A JSON-RPC error: its code, Warden's code and ref from {@code error.data}, and the message the
     * peer received, which Warden's renderer wrote or the sanitizer passed ({@link #received}).
     */
    record RpcError(int code, Optional<ErrorCode> wardenCode, Optional<Ref> ref, SanitizedMessage message)
            implements Outcome {
        public RpcError {
            Objects.requireNonNull(wardenCode, "wardenCode");
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(message, "sanitizedMessage");
        }

        /** The message's text: what the span's status says. */
        public String sanitizedMessage() {
            return message.text();
        }
    }

    /** No answer came or went: the request timed out, was cancelled, or its connection closed. */
    record Unanswered(Reason reason) implements Outcome {
        public Unanswered {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Why there was no answer; {@link #errorType} is the low-cardinality {@code error.type}, the
     * conventions' {@code _OTHER} for a failure of no kind Warden names.
     */
    enum Reason {
        TIMEOUT("timeout"), CANCELLED("cancelled"), CONNECTION_CLOSED("connection_closed"),
        INCOMPATIBLE_PEER("incompatible_peer"), UNAUTHORIZED("unauthorized"), MESSAGE_TOO_LARGE("message_too_large"),
        OTHER(McpNames.OTHER);

        private final String errorType;

        Reason(String errorType) {
            this.errorType = errorType;
        }

        public String errorType() {
            return errorType;
        }
    }

    static Outcome ok() {
        return new Ok();
    }

    /**
     * What a Warden server sent: its renderer wrote every message in it, so the message is kept as
     * it stands. A result is {@link Ok} or, when {@code isError}, a {@link ToolError}.
     */
    static Outcome sent(JsonRpcMessage.Response answer) {
        return switch (Objects.requireNonNull(answer, "answer")) {
            case JsonRpcMessage.Success success -> ofResult(success.result());
            case JsonRpcMessage.Failure failure ->
                    WireOutcomes.error(failure.error(), SanitizedMessage.rendered(failure.error().message()));
        };
    }

    /**
     * What a peer sent us (any server, Warden or not): a JSON-RPC error's message passes through
     * {@code sanitizer} first, and codes or refs not in Warden's form are left out.
     */
    static Outcome received(JsonRpcMessage.Response answer, Sanitizer sanitizer) {
        Objects.requireNonNull(sanitizer, "sanitizer");
        return switch (Objects.requireNonNull(answer, "answer")) {
            case JsonRpcMessage.Success success -> ofResult(success.result());
            case JsonRpcMessage.Failure failure -> ofError(failure.error(), sanitizer);
        };
    }

    /** A result: a {@link ToolError} when it says {@code isError: true}, else {@link Ok}. */
    static Outcome ofResult(JsonNode result) {
        return WireOutcomes.result(Objects.requireNonNull(result, "result"));
    }

    /**
     * How a request of ours failed: the peer's JSON-RPC error (its message sanitized), or why no
     * answer came. Never the exception's own message.
     */
    static Outcome failed(Throwable thrown, Sanitizer sanitizer) {
        return failed(thrown, sanitizer, Policy.REDACT);
    }

    /** As {@link #failed(Throwable, Sanitizer)}, the peer's message sanitized under {@code policy}. */
    static Outcome failed(Throwable thrown, Sanitizer sanitizer, Policy policy) {
        Objects.requireNonNull(thrown, "thrown");
        Objects.requireNonNull(sanitizer, "sanitizer");
        Objects.requireNonNull(policy, "policy");
        return WireOutcomes.failed(thrown, sanitizer, policy);
    }

    /** A JSON-RPC error a peer sent, its message sanitized. */
    static Outcome ofError(JsonRpcError error, Sanitizer sanitizer) {
        Objects.requireNonNull(error, "error");
        return WireOutcomes.error(error, SanitizedMessage.of(error.message(), sanitizer, Policy.REDACT));
    }
}
