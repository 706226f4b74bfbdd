package dev.warden.gateway;

import dev.warden.client.McpClient;
import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.AuthenticatedPeer;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The gateway's side of an in-memory connection from a network address (as over HTTP), whose caller
 * the transport authenticated (as the HTTP server does after checking a token or an API key), or
 * nobody did ({@code caller} empty).
 */
record AsCaller(Transport inner, String peerAddress, Optional<Caller> caller)
        implements Transport, PeerAddress, AuthenticatedPeer {

    /** A test client's way in from {@code address}, authenticated by nobody: each connect a fresh connection. */
    static Supplier<Transport> via(Gateway gateway, String address) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(new AsCaller(pair.right(), address, Optional.empty()));
            return pair.left();
        };
    }

    /** A test client's way in as {@code caller} from {@code address}: each connect a fresh connection. */
    static Supplier<Transport> via(Gateway gateway, Caller caller, String address) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            gateway.connect(new AsCaller(pair.right(), address, Optional.of(caller)));
            return pair.left();
        };
    }

    /**
     * A session-based test client named {@code clientName}, connected as {@code caller} from
     * 10.0.0.1, with a 30 s bound on each request: what most access and caller tests drive.
     */
    static McpClient sessionClient(Gateway gateway, Caller caller, String clientName) {
        return McpClient.builder(clientName, "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(via(gateway, caller, "10.0.0.1"));
    }

    /** A caller as a JWT access token would make it. */
    static Caller jwt(String subject, String clientId, Set<String> scopes, Map<String, Object> claims) {
        return new Caller(subject, Optional.of(clientId), "https://issuer.example", scopes, claims, Caller.Kind.JWT,
                Optional.empty());
    }

    static Caller jwt(String subject, String... scopes) {
        return jwt(subject, "client-" + subject, Set.of(scopes), Map.of("groups", List.of("staff")));
    }

    /** A caller as a named API key makes it: subject {@code key:NAME}, issuer {@code api-key}, no client id. */
    static Caller apiKey(String name, String... scopes) {
        return new Caller("key:" + name, Optional.empty(), "api-key", Set.of(scopes), Map.of(), Caller.Kind.API_KEY,
                Optional.empty());
    }

    @Override
    public void start(Listener listener) {
        inner.start(listener);
    }

    @Override
    public void send(String frame) {
        inner.send(frame);
    }

    @Override
    public void send(String frame, Route route) {
        inner.send(frame, route);
    }

    @Override
    public void requestEnded(RequestId request) {
        inner.requestEnded(request);
    }

    @Override
    public boolean closeStream(RequestId request) {
        return inner.closeStream(request);
    }

    @Override
    public void close() {
        inner.close();
    }
}
