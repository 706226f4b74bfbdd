package dev.warden.telemetry;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.Transport;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * {@link McpTelemetry} as a session's {@link SessionObserver}: each message from the peer a SERVER
 * operation (its handler runs with the span current; it ends with the answer exactly as written,
 * after Warden's renderer, or a notification once handled), each request or notification we send a
 * CLIENT operation (its context in {@code _meta}; a request's ends with the peer's answer, an
 * error's message sanitized). One per session:
 * {@code Session.builder(transport).observer(SessionTelemetry.observer(...))}.
 */
public final class SessionTelemetry implements SessionObserver {

    private final McpTelemetry telemetry;
    private final Function<JsonRpcMessage, Channel> channel;
    private final Function<JsonRpcMessage, Context> transport;

    /** The HTTP peer the messages come from: {@code client.address}/{@code client.port} on server spans. */
    private final Optional<PeerAddress> peer;

    private SessionTelemetry(McpTelemetry telemetry, Function<JsonRpcMessage, Channel> channel,
                             Function<JsonRpcMessage, Context> transport, Optional<PeerAddress> peer) {
        this.telemetry = telemetry;
        this.channel = channel;
        this.transport = transport;
        this.peer = peer;
    }

    /**
     * The observer for one session: {@code channel} is asked at each message (the session id and the
     * negotiated version become known on the way, or the message names its own version); {@code
     * transport} is asked at each message the peer sends for the context the transport carried it
     * with (the W3C headers of the HTTP request that carried that very message), the server span's
     * parent when {@code _meta} has none. Asked per message, not per session: over HTTP each
     * request comes in a POST of its own, with headers of its own.
     * {@link SessionObserver#NONE} for {@link McpTelemetry#noop()}.
     */
    public static SessionObserver observer(McpTelemetry telemetry, Function<JsonRpcMessage, Channel> channel,
                                           Function<JsonRpcMessage, Context> transport) {
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(transport, "transport");
        return observer(telemetry, channel, transport, Optional.empty());
    }

    private static SessionObserver observer(McpTelemetry telemetry, Function<JsonRpcMessage, Channel> channel,
                                            Function<JsonRpcMessage, Context> transport, Optional<PeerAddress> peer) {
        return telemetry == McpTelemetry.noop() ? SessionObserver.NONE
                : new SessionTelemetry(telemetry, channel, transport, peer);
    }

    /**
     * As {@link #observer(McpTelemetry, Function, Function)}, the context of each request being
     * what {@code transport} kept of the HTTP request that carried it ({@link
     * Transport#requestHeaders}), else the current one: the one way a session over core's
     * transports continues its caller's trace from HTTP headers.
     */
    public static SessionObserver observer(McpTelemetry telemetry, Function<JsonRpcMessage, Channel> channel,
                                           Transport transport) {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(channel, "channel");
        Optional<PeerAddress> peer = transport instanceof PeerAddress p ? Optional.of(p) : Optional.empty();
        return observer(telemetry, channel, message -> message instanceof JsonRpcMessage.Request request
                ? transport.requestHeaders(request.id())
                        .map(headers -> telemetry.extractHeaders(headers::header, Context.current()))
                        .orElseGet(Context::current)
                : Context.current(), peer);
    }

    /** As {@link #observer(McpTelemetry, Function, Function)}, the transport carrying no context. */
    public static SessionObserver observer(McpTelemetry telemetry, Function<JsonRpcMessage, Channel> channel) {
        return observer(telemetry, channel, message -> Context.current());
    }

    @Override
    public Incoming received(JsonRpcMessage message) {
        if (!telemetry.recording()) {
            return Incoming.NONE; // nothing asked of the channel or the transport while nothing is recorded
        }
        McpOperation op = telemetry.startServer(message, channel.apply(message), transport.apply(message));
        if (peer.isPresent()) {
            from(op, peer.get());
        }
        boolean request = message instanceof JsonRpcMessage.Request;
        return new Incoming() {
            @Override
            public <T> T during(Callable<T> work) throws Exception {
                try (Scope ignored = op.makeCurrent()) {
                    return work.call();
                }
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
                if (answer.isEmpty()) {
                    op.end(request ? new Outcome.Unanswered(Outcome.Reason.CANCELLED) : Outcome.ok());
                    return;
                }
                if (answer.get() instanceof JsonRpcMessage.Success success) {
                    op.result(success.result());
                }
                op.end(Outcome.sent(answer.get()));
            }

            @Override
            public void closed() {
                op.end(new Outcome.Unanswered(Outcome.Reason.CONNECTION_CLOSED));
            }
        };
    }

    /** The conventions' {@code client.address} and {@code client.port}: the peer's IP address as the socket saw it. */
    private static void from(McpOperation op, PeerAddress peer) {
        String address = peer.peerAddress();
        if (address != null && !address.isBlank()) {
            op.attribute(McpNames.CLIENT_ADDRESS, address);
            peer.peerPort().ifPresent(port -> op.attribute(McpNames.CLIENT_PORT, port.longValue()));
        }
    }

    /** A notification we send: a CLIENT operation, ended as it is written (there is no ack to wait for). */
    @Override
    public JsonRpcMessage.Notification notifying(JsonRpcMessage.Notification notification) {
        if (!telemetry.recording()) {
            return notification;
        }
        McpOperation op = telemetry.startClient(notification, channel.apply(notification));
        JsonRpcMessage.Notification traced = new JsonRpcMessage.Notification(notification.method(),
                op.propagate(notification.params()), notification.extras());
        op.end(Outcome.ok());
        return traced;
    }

    @Override
    public Outgoing sending(JsonRpcMessage.Request request) {
        if (!telemetry.recording()) {
            return new Outgoing(request, Ended.NONE); // nothing copied, nothing labelled
        }
        McpOperation op = telemetry.startClient(request, channel.apply(request));
        JsonRpcMessage.Request traced = new JsonRpcMessage.Request(request.id(), request.method(),
                op.propagate(request.params()), request.extras());
        return new Outgoing(traced, new Ended() {
            @Override
            public void answered(JsonNode result) {
                op.result(result);
                op.end(Outcome.ofResult(result));
            }

            @Override
            public void failed(Throwable failure) {
                // A foreign peer's error message: through the sanitizer and policy the telemetry was built with.
                op.end(Outcome.failed(failure, telemetry.sanitizer(), telemetry.policy()));
            }
        });
    }
}
