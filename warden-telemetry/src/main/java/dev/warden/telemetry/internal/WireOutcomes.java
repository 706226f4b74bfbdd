package dev.warden.telemetry.internal;

import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConfigurationException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.LocalFailure;
import dev.warden.core.error.MessageTooLargeException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.RequestCancelledException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.TransportException;
import dev.warden.core.error.WardenException;
import dev.warden.core.failure.Classifier;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.telemetry.Outcome;
import dev.warden.telemetry.SanitizedMessage;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import tools.jackson.databind.JsonNode;

/**
 * Reads an {@link Outcome} off an answer in the shapes Warden's renderer writes (ErrorRenderer):
 * {@code error.data.code}/{@code ref} on a JSON-RPC error, {@code {"error":{code, ref}}} as the
 * structured content or the text of an {@code isError} result. Only a code of the registry and a
 * well-formed ref are taken, so a foreign server's free text never lands in an attribute.
 */
public final class WireOutcomes {

    /** The text content parsed for Warden's error object at most; a longer one is not Warden's. */
    private static final int MAX_ERROR_TEXT = 16 * 1024;

    private WireOutcomes() {
    }

    public static Outcome result(JsonNode result) {
        if (!result.path("isError").asBoolean(false)) {
            return Outcome.ok();
        }
        JsonNode error = result.path("structuredContent").path("error");
        if (!error.isObject()) {
            error = textError(result.path("content"));
        }
        return new Outcome.ToolError(code(error.path("code")), ref(error.path("ref")));
    }

    public static Outcome error(JsonRpcError error, SanitizedMessage message) {
        JsonNode data = error.data().orElse(Json.object());
        return new Outcome.RpcError(error.code(), code(data.path("code")), ref(data.path("ref")), message);
    }

    public static Outcome failed(Throwable thrown, Sanitizer sanitizer, Policy policy) {
        Throwable cause = thrown instanceof CompletionException c && c.getCause() != null ? c.getCause() : thrown;
        if (!(cause instanceof WardenException warden)) {
            return new Outcome.Unanswered(Outcome.Reason.OTHER);
        }
        return switch (warden) {
            case PeerErrorException peer ->
                    error(peer.error(), SanitizedMessage.of(peer.error().message(), sanitizer, policy));
            case LocalFailure local -> new Outcome.Unanswered(reason(local));
            case ToolFailure f -> new Outcome.Unanswered(Outcome.Reason.OTHER);
            case ProtocolException e -> new Outcome.Unanswered(Outcome.Reason.OTHER);
            case TransportException e -> new Outcome.Unanswered(Outcome.Reason.CONNECTION_CLOSED);
            case ConfigurationException e -> new Outcome.Unanswered(Outcome.Reason.OTHER);
        };
    }

    private static Outcome.Reason reason(LocalFailure failure) {
        return switch (failure) {
            case RequestTimeoutException e -> Outcome.Reason.TIMEOUT;
            case RequestCancelledException e -> Outcome.Reason.CANCELLED;
            case ConnectionClosedException e -> Outcome.Reason.CONNECTION_CLOSED;
            case IncompatiblePeerException e -> Outcome.Reason.INCOMPATIBLE_PEER;
            case AuthorizationFailedException e -> Outcome.Reason.UNAUTHORIZED;
            case MessageTooLargeException e -> Outcome.Reason.MESSAGE_TOO_LARGE;
        };
    }

    private static JsonNode textError(JsonNode content) {
        JsonNode first = content.path(0);
        String text = first.path("text").asString("");
        if (!"text".equals(first.path("type").asString("")) || text.length() > MAX_ERROR_TEXT
                || !text.startsWith("{\"error\"")) {
            return Json.object();
        }
        try {
            return Json.mapper().readTree(text).path("error");
        } catch (RuntimeException e) {
            return Json.object(); // not Warden's error object after all
        }
    }

    private static Optional<ErrorCode> code(JsonNode node) {
        return node.isString() ? Classifier.declared(node.stringValue()) : Optional.empty();
    }

    private static Optional<Ref> ref(JsonNode node) {
        return node.isString() && Ref.isWellFormed(node.stringValue()) ? Optional.of(new Ref(node.stringValue()))
                : Optional.empty();
    }
}
