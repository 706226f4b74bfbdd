package dev.warden.gateway.internal.tracing;

import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.transport.PeerAddress;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;

/** What a transport of the gateway runs over, as the conventions name it ({@code network.transport}). */
public final class Channels {

    private Channels() {
    }

    /**
     * stdio: {@code warden wrap}'s client, a launched upstream; HTTP: the HTTP server's clients
     * (a transport that knows its peer's address), an upstream over Streamable HTTP; otherwise in
     * the same process (tests, an embedding application).
     */
    public static Channel of(Transport transport) {
        if (transport instanceof StdioTransport || transport instanceof ProcessTransport) {
            return Channel.stdio();
        }
        if (transport instanceof PeerAddress || transport instanceof StreamableHttpTransport) {
            return Channel.http();
        }
        return Channel.inProcess();
    }
}
