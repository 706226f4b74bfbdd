package dev.warden.core.jsonrpc;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message. Members the codec does not know are kept in {@code extras} so that a
 * message decoded and encoded again is unchanged, which the gateway relies on.
 */
public sealed interface JsonRpcMessage {

    /** Top-level members other than the ones JSON-RPC defines, in their original order. */
    Map<String, JsonNode> extras();

    /** Order matters for lossless re-encoding (a fuzzer found Map.copyOf shuffling it). */
    private static Map<String, JsonNode> copyInOrder(Map<String, JsonNode> extras) {
        return extras == null || extras.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extras));
    }

    /** A call that expects exactly one response with the same id. */
    record Request(RequestId id, String method, Optional<JsonNode> params, Map<String, JsonNode> extras)
            implements JsonRpcMessage {
        public Request {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(method, "method");
            params = Objects.requireNonNullElse(params, Optional.empty());
            extras = copyInOrder(extras);
        }

        public Request(RequestId id, String method, JsonNode params) {
            this(id, method, Optional.ofNullable(params), Map.of());
        }
    }

    /** A one-way message; it never gets a response, not even an error. */
    record Notification(String method, Optional<JsonNode> params, Map<String, JsonNode> extras)
            implements JsonRpcMessage {
        public Notification {
            Objects.requireNonNull(method, "method");
            params = Objects.requireNonNullElse(params, Optional.empty());
            extras = copyInOrder(extras);
        }

        public Notification(String method, JsonNode params) {
            this(method, Optional.ofNullable(params), Map.of());
        }
    }

    /** The answer to a request. */
    sealed interface Response extends JsonRpcMessage {
    }

    record Success(RequestId id, JsonNode result, Map<String, JsonNode> extras) implements Response {
        public Success {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(result, "result");
            extras = copyInOrder(extras);
        }

        public Success(RequestId id, JsonNode result) {
            this(id, result, Map.of());
        }
    }

    /** An error response; the id is empty when the request's id could not be read (JSON {@code null}). */
    record Failure(Optional<RequestId> id, JsonRpcError error, Map<String, JsonNode> extras) implements Response {
        public Failure {
            id = Objects.requireNonNullElse(id, Optional.empty());
            Objects.requireNonNull(error, "error");
            extras = copyInOrder(extras);
        }

        public Failure(Optional<RequestId> id, JsonRpcError error) {
            this(id, error, Map.of());
        }

        public Failure(RequestId id, JsonRpcError error) {
            this(Optional.of(id), error, Map.of());
        }
    }
}
