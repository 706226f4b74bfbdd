package dev.warden.telemetry;

import java.util.Objects;
import java.util.Optional;

/**
 * What an operation travels over, as the conventions name it: {@code network.transport} ({@code
 * pipe} for stdio, {@code tcp} for HTTP), the application protocol, the server's address (client
 * side), and the MCP session and protocol version once known. Built by the transport's owner.
 */
public record Channel(Optional<String> networkTransport, Optional<String> protocolName, Optional<String> protocolVersion,
                      Optional<String> serverAddress, Optional<Integer> serverPort, Optional<String> sessionId,
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
        sessionId = optionalText("sessionId", sessionId);
        mcpProtocolVersion = optionalText("mcpProtocolVersion", mcpProtocolVersion);
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
                sessionId, mcpProtocolVersion);
    }

    public Channel withProtocolVersion(String version) {
        return new Channel(networkTransport, protocolName, Optional.of(version), serverAddress, serverPort,
                sessionId, mcpProtocolVersion);
    }

    public Channel withSession(String id) {
        return new Channel(networkTransport, protocolName, protocolVersion, serverAddress, serverPort,
                Optional.of(id), mcpProtocolVersion);
    }

    public Channel withMcpProtocolVersion(String version) {
        return new Channel(networkTransport, protocolName, protocolVersion, serverAddress, serverPort, sessionId,
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
