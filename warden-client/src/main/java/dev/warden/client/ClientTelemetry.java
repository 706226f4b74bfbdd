package dev.warden.client;

import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.session.SessionObserver;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.SessionTelemetry;
import java.net.URI;
import java.util.Optional;

/**
 * One connection's channel as its spans name it: stdio is {@code pipe}; Streamable HTTP is {@code
 * tcp} with the endpoint's host and port as {@code server.address}/{@code server.port} and the
 * session the server gave as {@code mcp.session.id}; the version once negotiated.
 */
final class ClientTelemetry {

    private final Transport transport;
    private final Channel base;
    private volatile Optional<String> version = Optional.empty();

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
        Channel channel = version.map(base::withMcpProtocolVersion).orElse(base);
        if (transport instanceof StreamableHttpTransport http) {
            channel = http.sessionId().map(channel::withSession).orElse(channel);
        }
        return channel;
    }

    private static Channel channelOf(Transport transport) {
        if (transport instanceof StreamableHttpTransport http) {
            URI endpoint = http.endpoint();
            Channel channel = Channel.http();
            if (endpoint.getHost() != null) {
                int port = endpoint.getPort() >= 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
                channel = channel.withServer(endpoint.getHost(), port);
            }
            return channel;
        }
        return transport instanceof ProcessTransport || transport instanceof StdioTransport ? Channel.stdio()
                : Channel.inProcess();
    }
}
