package dev.warden.http.server.internal.replica;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stream.StreamIds;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A portable session's resumption ({@code Last-Event-ID}) that names a stream of another replica
 * ({@link StreamIds}). Its events are that replica's alone: while it lives, they are read from it
 * ({@link RemoteStreams}), and what that cannot serve is refused here as any stream this replica
 * does not hold. Once it is down, the
 * requests the stream carried will never be answered, so they are answered here, each with a
 * retryable error naming its own id, on a stream that then ends: a client waiting on them learns
 * at once that it may send them again, rather than after its request timeout.
 *
 * <p>A replica just killed still counts as alive until its heartbeat lapses (the Redis bus's lease,
 * 3 s by default, plus a refresh), while a client resumes within a second and gives up after a
 * couple of refusals (the TypeScript SDK tries twice). So a resumption naming a live replica is
 * held, up to {@link #VERDICT_WITHIN}, until that replica is seen down; only then is it refused.
 * The error's events carry no id: there is nothing to resume after them.
 */
public final class LostStreams {

    public static final String NO_STREAM = "Bad request: Last-Event-ID names no stream of this session that can be resumed";
    static final String STOPPED = "Service unavailable: the replica serving this request stopped before "
            + "answering; sending the request again is safe to try";
    /** How long a resumption naming a live replica waits for it to be seen down: more than a lease and a refresh. */
    static final Duration VERDICT_WITHIN = Duration.ofSeconds(5);
    private static final long LOOK_EVERY_MILLIS = 100;

    private final EndpointSettings settings;
    private final ScheduledExecutorService timers;
    private final Refusals refusals;

    public LostStreams(EndpointSettings settings, ScheduledExecutorService timers, Refusals refusals) {
        this.settings = settings;
        this.timers = timers;
        this.refusals = refusals;
    }

    /**
     * Takes the resumption of {@code streamId} if it names another replica's stream (answered now,
     * or once that replica's fate is known); false, untouched, for any other.
     */
    public boolean answered(String streamId, Response response, Callback callback) {
        if (settings.seal().isEmpty() || settings.replicas().alone()) {
            return false;
        }
        Optional<StreamIds.Served> served = StreamIds.parse(streamId);
        if (served.isEmpty() || served.get().replica().equals(settings.replicas().self())) {
            return false;
        }
        look(served.get(), response, callback, VERDICT_WITHIN.toMillis() / LOOK_EVERY_MILLIS);
        return true;
    }

    /** Answers once the replica is seen down, or refuses after {@code looksLeft} more looks. */
    private void look(StreamIds.Served served, Response response, Callback callback, long looksLeft) {
        if (!settings.replicas().alive(served.replica())) {
            answerLost(served, response, callback);
        } else if (looksLeft <= 0) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST, NO_STREAM);
        } else {
            try {
                // The answer records a refusal (a store's write): off the timer's thread.
                timers.schedule(() -> Thread.ofVirtual().name("warden-lost-stream")
                        .start(() -> look(served, response, callback, looksLeft - 1)),
                        LOOK_EVERY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST, NO_STREAM); // stopping
            }
        }
    }

    private void answerLost(StreamIds.Served served, Response response, Callback callback) {
        Headers.sse(response);
        Content.Sink.write(response, true, lost(served.replica(), served.requests()), callback);
    }

    /** The events answering {@code requests}, which replica {@code replica} stopped before answering, each with a retryable error. */
    String lost(String replica, java.util.Collection<RequestId> requests) {
        ProtocolException stopped = new ProtocolException(JsonRpcError.INTERNAL_ERROR, STOPPED, ErrorCode.UPSTREAM_ERROR);
        JsonRpcError error = ErrorRenderer.rpcError(stopped, settings.boundary().refusal(stopped,
                FailureContext.of("(http)"), "replica " + replica + " is down"));
        StringBuilder events = new StringBuilder();
        for (RequestId id : requests) {
            events.append("event: message\ndata: ")
                    .append(JsonRpcCodec.encode(new JsonRpcMessage.Failure(id, error)))
                    .append("\n\n");
        }
        return events.toString();
    }
}
