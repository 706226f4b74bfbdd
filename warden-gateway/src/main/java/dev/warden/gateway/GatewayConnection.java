package dev.warden.gateway;

import java.util.concurrent.CompletableFuture;

/** One client's connection through the gateway, as {@link Gateway#connect} started it. */
public final class GatewayConnection implements AutoCloseable {

    private final CompletableFuture<Void> closed;
    private final Runnable close;

    GatewayConnection(CompletableFuture<Void> closed, Runnable close) {
        this.closed = closed;
        this.close = close;
    }

    /** Completes once the connection has closed (the client went away, or {@link #close()}). */
    public CompletableFuture<Void> closed() {
        return closed.copy();
    }

    /** Closes the connection; its per-client upstreams stop with it. */
    @Override
    public void close() {
        close.run();
    }
}
