package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * What a session writes to its transport, each message encoded and put on its stream: an answer on
 * its request's stream (with its error code, for transports that make a status of it), the rest
 * where the caller says. The quiet sends drop what a closed transport can no longer carry.
 */
final class Outbox {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    private final Transport transport;
    private final SessionObserver observer;

    Outbox(Transport transport, SessionObserver observer) {
        this.transport = transport;
        this.observer = observer;
    }

    /** A request of ours; {@code answered} lets the transport stop waiting for room once it is answered. */
    void request(JsonRpcMessage.Request request, Route route, CompletableFuture<?> answered) {
        transport.send(JsonRpcCodec.encode(request), request, route, answered);
    }

    /** A notification; a closed transport throws. */
    void notify(String method, JsonNode params, Route route) {
        JsonRpcMessage.Notification notification = observed(new JsonRpcMessage.Notification(method,
                Optional.ofNullable(params), Map.of()));
        transport.send(JsonRpcCodec.encode(notification), notification, route);
    }

    private JsonRpcMessage.Notification observed(JsonRpcMessage.Notification notification) {
        if (observer == SessionObserver.NONE) {
            return notification;
        }
        try {
            return observer.notifying(notification);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the session observer failed; the notification goes unobserved", e);
            return notification;
        }
    }

    /** Like {@link #notify} but a closed transport is not an error (progress racing a disconnect, say). */
    void notifyQuietly(String method, JsonNode params, Route route) {
        try {
            notify(method, params, route);
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "notification dropped: transport closed");
        }
    }

    /** An answer (or a refusal without an id), dropped if the transport has closed. */
    void reply(JsonRpcMessage message) {
        try {
            transport.send(JsonRpcCodec.encode(message), message, routeOf(message));
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "reply dropped: transport closed");
        }
    }

    /** The answers to a batch, in one frame on the stream of the first request answered. */
    void batchReply(List<JsonRpcMessage> answers) {
        try {
            Optional<RequestId> first = answers.stream().flatMap(m -> replyId(m).stream()).findFirst();
            transport.send(JsonRpcCodec.encodeBatch(answers), first.map(Route::reply).orElse(Route.UNRELATED));
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "batch reply dropped: transport closed");
        }
    }

    /**
     * The one refusal of a whole batch (it has no id of its own): on the stream of the batch's first
     * request, if it has one, and then every request of it ended, as none will be answered otherwise.
     */
    void refuseBatch(JsonRpcMessage refusal, List<RequestId> requests) {
        try {
            OptionalInt code = refusal instanceof JsonRpcMessage.Failure f ? OptionalInt.of(f.error().code())
                    : OptionalInt.empty();
            transport.send(JsonRpcCodec.encode(refusal), refusal, requests.isEmpty() ? Route.UNRELATED
                    : new Route.Reply(requests.get(0), code));
        } catch (TransportClosedException e) {
            LOG.log(System.Logger.Level.DEBUG, "batch refusal dropped: transport closed");
        }
        requests.forEach(transport::requestEnded);
    }

    /** The request is answered: a transport holding a stream open for it may close it. */
    void requestEnded(RequestId request) {
        transport.requestEnded(request);
    }

    /** See {@link Transport#closeStream}. */
    boolean closeStream(RequestId request) {
        return transport.closeStream(request);
    }

    /** An answer goes on its request's stream, with its error code if it is an error. */
    private static Route routeOf(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Success s -> Route.reply(s.id());
            case JsonRpcMessage.Failure f -> f.id().<Route>map(id -> new Route.Reply(id,
                    OptionalInt.of(f.error().code()))).orElse(Route.UNRELATED);
            default -> Route.UNRELATED;
        };
    }

    private static Optional<RequestId> replyId(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
            default -> Optional.empty();
        };
    }
}
