package dev.warden.telemetry;

import dev.warden.core.transport.IdentifiedSession;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.internal.SessionDigests;
import java.util.Objects;
import java.util.Optional;

/**
 * What an operation travels over, as the conventions name it: {@code network.transport} ({@code
 * pipe} for stdio, {@code tcp} for HTTP), the application protocol, the server's address (client
 * side), and the MCP session and protocol version once known. Built by the transport's owner.
 * {@code sessionDigest} is a digest of the session's id ({@link #withSession}), never the id: over
 * HTTP the id is what a client presents to use the session.
 */
public record Channel(Optional<String> networkTransport, Optional<String> protocolName, Optional<String> protocolVersion,
                      Optional<String> serverAddress, Optional<Integer> serverPort, Optional<String> sessionDigest,
                      Optional<String> mcpProtocolVersion) {

    public Channel {
        networkTransport = optionalText("networkTransport", networkTransport);
        protocolName = optionalText("protocolName", protocolName);
        protocolVersion = optionalText("protocolVersion", protocolVersion);
        serverAddress = optionalText("serverAddress", serverAddress);
        Objects.requireNonNull(serverPort, "serverPort");
        serverPort.ifPresent(port -> {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("serverPort must be 0..65535, got " + port);
            }
        });
        if (serverPort.isPresent() && serverAddress.isEmpty()) {
            throw new IllegalArgumentException("serverPort " + serverPort.get() + " needs a serverAddress");
        }
        Objects.requireNonNull(sessionDigest, "sessionDigest");
        sessionDigest.ifPresent(d -> {
            if (!SessionDigests.isDigest(d)) {
                throw new IllegalArgumentException("sessionDigest must be " + SessionDigests.LENGTH
                        + " lowercase hex digits (Channel.withSession digests an id), got " + d.length() + " characters");
            }
        });
        mcpProtocolVersion = optionalText("mcpProtocolVersion", mcpProtocolVersion);
    }

    /**
     * What a transport of core's travels over: {@code pipe} for stdio (the server's end or the
     * client's, a subprocess), Streamable HTTP for one that knows its peer's network address (the
     * HTTP server's), in process otherwise; the session by its digest when it is known by an id.
     * Never throws for what the transport says of its session (no id, a blank one): it runs outside
     * the observer's guard, so a channel without the session is the answer.
     */
    public static Channel of(Transport transport) {
        Objects.requireNonNull(transport, "transport");
        if (transport instanceof StdioTransport || transport instanceof ProcessTransport) {
            return stdio();
        }
        Channel channel = transport instanceof PeerAddress ? http() : inProcess();
        String id = transport instanceof IdentifiedSession session ? session.sessionId() : null;
        return id == null || id.isBlank() ? channel : channel.withSession(id);
    }

    /** Standard input and output of a process. */
    public static Channel stdio() {
        return new Channel(Optional.of(McpNames.PIPE), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    /** Streamable HTTP. */
    public static Channel http() {
        return new Channel(Optional.of(McpNames.TCP), Optional.of(McpNames.HTTP), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** In the same process (tests, an embedded server): no network, so no {@code network.*} attribute. */
    public static Channel inProcess() {
        return new Channel(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    /** The server a client talks to ({@code server.address}, {@code server.port}). */
    public Channel withServer(String address, int port) {
        return new Channel(networkTransport, protocolName, protocolVersion, Optional.of(address), Optional.of(port),
                sessionDigest, mcpProtocolVersion);
    }

    public Channel withProtocolVersion(String version) {
        return new Channel(networkTransport, protocolName, Optional.of(version), serverAddress, serverPort,
                sessionDigest, mcpProtocolVersion);
    }

    /** The session, known by a digest of {@code id} (the same digest on both sides). */
    public Channel withSession(String id) {
        return new Channel(networkTransport, protocolName, protocolVersion, serverAddress, serverPort,
                Optional.of(SessionDigests.of(requireText("sessionId", id))), mcpProtocolVersion);
    }

    public Channel withMcpProtocolVersion(String version) {
        return new Channel(networkTransport, protocolName, protocolVersion, serverAddress, serverPort, sessionDigest,
                Optional.of(version));
    }

    private static String requireText(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }

    private static Optional<String> optionalText(String what, Optional<String> value) {
        Objects.requireNonNull(value, what);
        value.ifPresent(v -> requireText(what, v));
        return value;
    }
}
