package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import java.util.concurrent.CompletableFuture;

/**
 * What the gateway learns from an upstream's connections by itself (its tools:
 * {@code catalog.ListingOnConnect}), told of the first connection an upstream link makes and of
 * each {@code notifications/tools/list_changed} one sends. Neither may block: both are called
 * where the link cannot wait (its pool locked, its notification thread).
 */
public interface Learner {

    /** Learns nothing. */
    Learner NONE = new Learner() {
        @Override
        public CompletableFuture<?> connected(UpstreamLink link, McpClient connection) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void toolsChanged(UpstreamLink link, McpClient connection) {
        }
    };

    /** {@code link}'s first connection is made: what ends when the learning does (never exceptionally). */
    CompletableFuture<?> connected(UpstreamLink link, McpClient connection);

    /** The upstream said its tools changed, on {@code connection}. */
    void toolsChanged(UpstreamLink link, McpClient connection);
}
