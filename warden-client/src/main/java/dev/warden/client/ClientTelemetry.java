package dev.warden.client;

import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.SessionTelemetry;
import java.net.URI;
import java.util.Optional;

/**
 * One connection's channel as its spans name it: stdio is {@code pipe}; Streamable HTTP is {@code
 * tcp} with the endpoint's host and port as {@code server.address}/{@code server.port} and the
 * session the server gave as {@code mcp.session.id}; the version once negotiated. Public only for
 * {@link #channelOf}, the one place a client connection's {@link Channel} is built from its transport.
 */
public final class ClientTelemetry {

    private final Transport transport;
    private final Channel base;
    private volatile Optional<String> version = Optional.empty();
    /** The last channel named by a session: the id's digest is made once per session, not per message. */
    private volatile Optional<Named> named = Optional.empty();

    private record Named(String id, Optional<String> version, Channel channel) {
    }

    ClientTelemetry(Transport transport) {
        this.transport = transport;
        this.base = channelOf(transport);
    }

    SessionObserver observer(McpTelemetry telemetry) {
        return SessionTelemetry.observer(telemetry, message -> channel());
    }

    /** The connection, its version now known to the spans that follow. */
    Connection negotiated(Connection connection) {
        version = Optional.of(connection.version().wire());
        return connection;
    }

    private Channel channel() {
        Optional<String> negotiated = version;
        Channel channel = negotiated.map(base::withMcpProtocolVersion).orElse(base);
        if (!(transport instanceof StreamableHttpTransport http) || http.sessionId().isEmpty()) {
            return channel;
        }
        String id = http.sessionId().get();
        Named last = named.filter(n -> n.id().equals(id) && n.version().equals(negotiated)).orElse(null);
        if (last == null) {
            last = new Named(id, negotiated, channel.withSession(id));
            named = Optional.of(last);
        }
        return last.channel();
    }

    /**
     * What a connection over {@code transport} travels over, as a client's spans name it: for
     * Streamable HTTP, {@code server.address}/{@code server.port} from the endpoint's URL (the
     * scheme's port when it names none); otherwise as {@link Channel#of} says. A proxy's spans to
     * its upstreams use it too, so both name a server alike.
     */
    public static Channel channelOf(Transport transport) {
        if (!(transport instanceof StreamableHttpTransport http)) {
            return Channel.of(transport);
        }
        URI endpoint = http.endpoint();
        if (endpoint.getHost() == null) {
            return Channel.http();
        }
        int port = endpoint.getPort() >= 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        return Channel.http().withServer(endpoint.getHost(), port);
    }
}
