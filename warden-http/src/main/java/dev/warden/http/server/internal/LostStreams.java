package dev.warden.http.server.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A portable session's resumption ({@code Last-Event-ID}) that names a stream of another replica.
 * Its events are that replica's alone: while it lives, the resumption must reach it, and this
 * replica refuses as for any stream it does not hold. Once it is down (its heartbeat lapsed, see
 * the replicas' bus) the requests the stream carried will never be answered, so they are answered
 * here, each with a retryable error naming its own id, on a stream that then ends; a client waiting
 * on them learns at once that it may send them again, rather than after its request timeout.
 *
 * <p>The error's events have no id: a client resumes nothing after them.
 */
final class LostStreams {

    static final String STOPPED = "Service unavailable: the replica serving this request stopped before "
            + "answering; sending the request again is safe to try";

    private final EndpointSettings settings;

    LostStreams(EndpointSettings settings) {
        this.settings = settings;
    }

    /** Answers the resumption of {@code streamId} if it names a stream of a replica that is down; false otherwise. */
    boolean answered(String streamId, Response response, Callback callback) {
        if (settings.seal().isEmpty() || settings.replicas().alone()) {
            return false;
        }
        Optional<StreamIds.Served> served = StreamIds.parse(streamId);
        if (served.isEmpty() || served.get().replica().equals(settings.replicas().self())
                || settings.replicas().alive(served.get().replica())) {
            return false;
        }
        ProtocolException stopped = new ProtocolException(JsonRpcError.INTERNAL_ERROR, STOPPED, ErrorCode.UPSTREAM_ERROR);
        JsonRpcError error = ErrorRenderer.rpcError(stopped, settings.boundary().refusal(stopped,
                FailureContext.of("(http)"), "replica " + served.get().replica() + " is down"));
        StringBuilder events = new StringBuilder();
        for (RequestId id : served.get().requests()) {
            events.append("event: message\ndata: ")
                    .append(JsonRpcCodec.encode(new JsonRpcMessage.Failure(id, error)))
                    .append("\n\n");
        }
        Headers.sse(response);
        Content.Sink.write(response, true, events.toString(), callback);
        return true;
    }
}
