package dev.warden.gateway.internal.tracing;

import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.transport.Transport;
import dev.warden.telemetry.Channel;

/** What an upstream connection of the gateway runs over, as its spans name it ({@code network.transport}). */
public final class Channels {

    private Channels() {
    }

    /** Streamable HTTP for the client's own HTTP transport; a launched server's pipe, or in process, as {@link Channel#of} says. */
    public static Channel upstream(Transport transport) {
        return transport instanceof StreamableHttpTransport ? Channel.http() : Channel.of(transport);
    }
}
