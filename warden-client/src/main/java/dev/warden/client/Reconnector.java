package dev.warden.client;

import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConnectionClosedException;
import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.RequestCancelledException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The client's one connection over time: opened at connect, replaced when it died (with the
 * reconnect policy's attempts and backoff), and once more when an HTTP server forgot its session.
 */
final class Reconnector {

    private static final System.Logger LOG = System.getLogger(Reconnector.class.getName());

    private final ClientConfig config;
    private final Handshake handshake;
    private final Runnable onConnected;
    private final Object connecting = new Object();
    private volatile Connection connection;
    private volatile boolean closed;

    /** @param onConnected runs after each new connection is up (what was learned of the old server is dropped) */
    Reconnector(ClientConfig config, Handshake handshake, Runnable onConnected) {
        this.config = config;
        this.handshake = handshake;
        this.onConnected = onConnected;
    }

    /** The connection now, whatever its state; empty before the first and after close. */
    Optional<Connection> current() {
        return Optional.ofNullable(connection);
    }

    /** The live connection; a dead one is replaced first, under the reconnect policy. */
    Connection live() {
        Connection c = connection;
        if (c != null && c.isOpen()) {
            return c;
        }
        return reconnect();
    }

    /**
     * Sends and waits; when the server answers that it no longer knows the session, a new one is
     * started and the request is sent once more (the first never reached a handler: the server had
     * no session for it).
     */
    <T> T onceMoreIfExpired(Supplier<CompletableFuture<T>> send) {
        try {
            return Calls.join(send.get());
        } catch (ConnectionClosedException e) {
            if (!e.sessionExpired() || closed) {
                throw e;
            }
            reconnect();
            return Calls.join(send.get());
        }
    }

    void close() {
        closed = true;
        Connection c = connection;
        if (c != null) {
            c.close();
        }
    }

    Connection reconnect() {
        synchronized (connecting) {
            if (closed) {
                throw new ConnectionClosedException("The client is closed");
            }
            Connection old = connection;
            if (old != null) {
                old.close();
            }
            connection = null;
            int attempts = Math.max(1, config.reconnect().maxAttempts() + (old == null ? 1 : 0));
            RuntimeException last = null;
            for (int attempt = 1; attempt <= attempts; attempt++) {
                if (attempt > 1) {
                    pause(config.reconnect().delay(attempt - 1));
                }
                try {
                    Connection opened = handshake.open();
                    onConnected.run();
                    connection = opened;
                    return opened;
                } catch (IncompatiblePeerException | AuthorizationFailedException e) {
                    throw e; // the server will not change its mind on retry (nor the user theirs)
                } catch (Handshake.ServerDidNotStart e) {
                    // A server that never ran (no such program; it exited before answering: a wrong
                    // argument, a missing directory or package) fails the same way on every try: the
                    // caller hears why at once, not after the backoff. One that ran before and then
                    // crashed is tried again: it may well come back.
                    ConnectionClosedException failure = new ConnectionClosedException(e.getMessage(), e.getCause(),
                            false);
                    if (old == null) {
                        throw failure;
                    }
                    last = failure;
                    LOG.log(System.Logger.Level.DEBUG, "connecting failed (attempt {0} of {1})", attempt, attempts);
                } catch (RuntimeException e) {
                    last = e;
                    LOG.log(System.Logger.Level.DEBUG, "connecting failed (attempt {0} of {1})", attempt, attempts);
                }
            }
            throw last instanceof ConnectionClosedException closedException ? closedException
                    : new ConnectionClosedException("Could not connect to the server", last, false);
        }
    }

    private void pause(Duration d) {
        try {
            config.pause().pause(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestCancelledException("Interrupted while reconnecting");
        }
    }
}
