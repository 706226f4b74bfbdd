package dev.warden.server.internal;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.StatelessRequests;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.Transport;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Tools;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.KnownTargets;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.SessionTelemetry;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;

/**
 * One connection's telemetry: what it travels over ({@link Channel#of}) with the version each
 * message speaks and, on a transport that keeps the headers of the HTTP request that carried each
 * request ({@link Transport#requestHeaders}: a session's POSTs, a stateless exchange), their W3C
 * context as the parent of the span of a request whose {@code _meta} carries none.
 */
public final class ServerTelemetry {

    private ServerTelemetry() {
    }

    public static SessionObserver observer(McpTelemetry telemetry, Transport transport, ConnectedClient client) {
        Channel base = Channel.of(transport);
        return SessionTelemetry.observer(telemetry,
                message -> version(message, client).map(base::withMcpProtocolVersion).orElse(base), transport);
    }

    /**
     * {@code mcp.server.session.duration}: from the connection's start to its close, when the client
     * initialized a session on it (a stateless exchange is none, and records nothing).
     */
    public static void timed(McpTelemetry telemetry, Transport transport, ConnectedClient client,
                             CompletionStage<Void> closed) {
        telemetry.startServerSession().endWhen(closed, () -> client.version().filter(v -> !v.stateless())
                .map(v -> Channel.of(transport).withMcpProtocolVersion(v.wire())));
    }

    /** The tools and prompts {@code catalog} registered: the only names that name a span or a series. */
    public static KnownTargets registered(Catalog catalog) {
        return (method, name) -> switch (method) {
            case Tools.CALL -> catalog.tools().containsKey(name);
            case Prompts.GET -> catalog.prompts().containsKey(name);
            default -> false;
        };
    }

    /** The version a message speaks: its own (stateless versions name it in {@code _meta}), else the session's. */
    private static Optional<String> version(JsonRpcMessage message, ConnectedClient client) {
        Optional<JsonNode> params = switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            case JsonRpcMessage.Response r -> Optional.empty();
        };
        // Only a version Warden knows: a made-up one would be the caller's free text on every metric.
        Optional<String> own = StatelessRequests.requestedVersion(params).flatMap(ProtocolVersion::fromWire)
                .map(ProtocolVersion::wire);
        return own.isPresent() ? own : client.version().map(ProtocolVersion::wire);
    }
}
