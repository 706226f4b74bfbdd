package dev.warden.core.session;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.ConfigurationException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.LocalFailure;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.TransportException;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.error.WardenException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the peer gets back for a request: the handler's result (through the session's result
 * filter), or its failure as a JSON-RPC error, recorded by the boundary under a ref and rendered by
 * the one renderer. Refusals (unknown method, invalid frame, too many requests) come from here too.
 */
final class Answers {

    private final ErrorBoundary boundary;
    private final Session.ResultFilter resultFilter;

    Answers(ErrorBoundary boundary, Session.ResultFilter resultFilter) {
        this.boundary = boundary;
        this.resultFilter = resultFilter;
    }

    /** A protocol error for the peer, rendered by the one renderer, its ref recorded by the boundary. */
    JsonRpcMessage.Failure refusal(Optional<RequestId> id, String method, ProtocolException e) {
        return refusal(id, method, e, "");
    }

    /** {@link #refusal(Optional, String, ProtocolException)} with why, for the operator (see {@link ErrorBoundary#refusal}). */
    JsonRpcMessage.Failure refusal(Optional<RequestId> id, String method, ProtocolException e, String reason) {
        return new JsonRpcMessage.Failure(id, ErrorRenderer.rpcError(e,
                boundary.refusal(e, FailureContext.of(method), reason)));
    }

    /** The answer to an invalid frame, when one may be sent: the codec's refusal, recorded and rendered. */
    Optional<JsonRpcMessage.Failure> refusal(Decoded.Invalid invalid) {
        return invalid.refusal().map(r -> refusal(r.id(), Session.FRAME, ProtocolException.refusing(r),
                invalid.reason()));
    }

    /**
     * The answer to a request whose handler returned {@code value} or threw {@code thrown}; empty
     * when the peer cancelled it, since a cancelled request gets no answer.
     */
    Optional<JsonRpcMessage> of(InFlight context, JsonRpcMessage.Request request, JsonNode value, Throwable thrown) {
        JsonRpcMessage reply = null;
        if (thrown == null) {
            try {
                reply = new JsonRpcMessage.Success(request.id(),
                        resultFilter.apply(request, value == null ? Json.object() : value));
            } catch (Throwable t) {
                thrown = t;
            }
        }
        if (thrown != null) {
            Optional<JsonRpcMessage.Failure> failure = failure(context, request, thrown);
            if (failure.isEmpty()) {
                return Optional.empty();
            }
            reply = failure.get();
        }
        // Exactly one of "answer" and "cancelled" happens; a cancelled request gets no answer.
        return context.complete() ? Optional.of(reply) : Optional.empty();
    }

    /** The error a handler's failure becomes; empty when the peer cancelled the request meanwhile. */
    private Optional<JsonRpcMessage.Failure> failure(InFlight context, JsonRpcMessage.Request request,
            Throwable thrown) {
        if (!(thrown instanceof WardenException warden)) {
            return captured(context, request, thrown); // a bug or a library's exception: untrusted
        }
        return switch (warden) {
            // The handler chose this JSON-RPC error: it is the answer as it stands.
            case ProtocolException e -> Optional.of(refusal(Optional.of(request.id()), request.method(), e));
            // A failure the author meant (outside tools/call, whose boundary makes it a result): its code stays.
            case ToolFailure f -> captured(context, request, f);
            // What the handler's own exchanges with a peer met (a timeout, the peer's error, a closed
            // transport) and definitions it could not use: the peer is told none of it, only a ref.
            case LocalFailure f -> captured(context, request, f);
            case PeerErrorException e -> captured(context, request, e);
            case TransportException e -> captured(context, request, e);
            case ConfigurationException e -> captured(context, request, e);
        };
    }

    /** {@code thrown} recorded under a ref and rendered with the code the boundary gives it. */
    private Optional<JsonRpcMessage.Failure> captured(InFlight context, JsonRpcMessage.Request request,
            Throwable thrown) {
        if (context.cancelled()) {
            return Optional.empty(); // no answer goes out, so nothing is recorded for one
        }
        CapturedFailure captured = boundary.capture(thrown, FailureContext.of(request.method()));
        return Optional.of(new JsonRpcMessage.Failure(request.id(), ErrorRenderer.rpcError(
                ErrorRenderer.jsonRpcCodeFor(captured.failure().code()), VisibleFailure.of(captured))));
    }
}
