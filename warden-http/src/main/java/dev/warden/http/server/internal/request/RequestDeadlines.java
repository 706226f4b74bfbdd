package dev.warden.http.server.internal.request;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * A deadline for what a client sends: a request's headers, then its body, must arrive within
 * {@code timeout} of the connection opening or of the previous response ending. Jetty's idle
 * timeout is reset by every byte, so a client trickling one byte at a time (slowloris) would hold
 * its connection for ever; this one is not. Closing the connection is what ends a late request:
 * it fails the body read's pending demand ({@link BodyReader}). A connection waiting for its next
 * request past the deadline is closed too, as the idle timeout would. A request being answered (a
 * long call, an event stream) has no deadline here.
 */
public final class RequestDeadlines implements Connection.Listener {

    /** Since when (millis of the clock) each connection has been waiting for its client; absent while answering. */
    private final Map<Connection, Long> waiting = new ConcurrentHashMap<>();
    private final Duration timeout;
    private final InstantSource clock;

    public RequestDeadlines(Duration timeout, InstantSource clock) {
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public void onOpened(Connection connection) {
        waiting.put(connection, clock.millis());
    }

    @Override
    public void onClosed(Connection connection) {
        waiting.remove(connection);
    }

    /**
     * The request's headers arrived; its body is still to come (the deadline keeps running). The
     * returned callback restarts the wait for the next request when the response ends.
     */
    public Callback started(Request request, Callback callback) {
        Connection connection = request.getConnectionMetaData().getConnection();
        return Callback.from(callback, () -> {
            if (connection.getEndPoint().isOpen()) {
                // A connection that closes meanwhile is dropped by the next sweep.
                waiting.put(connection, clock.millis());
            }
        });
    }

    /** The request has arrived whole: no deadline while it is answered. */
    public void answering(Request request) {
        waiting.remove(request.getConnectionMetaData().getConnection());
    }

    /** Closes the connections whose client is late. */
    public void sweep() {
        long now = clock.millis();
        waiting.forEach((connection, since) -> {
            if (now - since > timeout.toMillis() && waiting.remove(connection, since)) {
                connection.getEndPoint().close();
            }
        });
    }
}
