package dev.warden.http.server.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One server-sent-events stream: the response stream of a POST, or the stream a GET opens. Every
 * event gets an id ({@code <stream>_<n>}) and is kept (up to a bound) so that a client whose
 * connection broke can resume with {@code Last-Event-ID} on a new GET and receive what it missed,
 * on this stream only. The stream outlives its connections: the server may drop a connection
 * (polling) and a client may reconnect, until the stream ends with its last event.
 */
final class SseStream {

    /** What a stream remembers for resumption, so a client that never comes back costs bounded memory. */
    static final int MAX_KEPT_EVENTS = 1024;

    private record Event(long sequence, String data) {
    }

    /** One HTTP response carrying the stream for a while. */
    private record Connection(Response response, Callback callback, OutputStream out) {
    }

    private final String id;
    private final Deque<Event> kept = new ArrayDeque<>();
    private long nextSequence = 1;
    private Connection connection;
    private boolean ended;
    private final Runnable onDisconnect;

    SseStream(String id, Runnable onDisconnect) {
        this.id = id;
        this.onDisconnect = onDisconnect;
    }

    String id() {
        return id;
    }

    /** The stream id in a Last-Event-ID value ({@code <stream>_<n>}). */
    static Optional<String> streamOf(String eventId) {
        int underscore = eventId.lastIndexOf('_');
        return underscore > 0 ? Optional.of(eventId.substring(0, underscore)) : Optional.empty();
    }

    /** The event number in a Last-Event-ID value. */
    static OptionalLong sequenceOf(String eventId) {
        int underscore = eventId.lastIndexOf('_');
        if (underscore < 0 || underscore == eventId.length() - 1 || eventId.length() - underscore > 19) {
            return OptionalLong.empty();
        }
        long n = 0;
        for (int i = underscore + 1; i < eventId.length(); i++) {
            char c = eventId.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            n = n * 10 + (c - '0');
        }
        return OptionalLong.of(n);
    }

    /**
     * Starts carrying the stream on {@code response}: the headers are set here, then (for a
     * resumed stream) the events after {@code after} are replayed.
     *
     * @param priming a priming event (an id and empty data, with the reconnection delay) first:
     *                clients of 2025-11-25 and later resume from it; older clients do not expect it
     */
    synchronized void attach(Response response, Callback callback, long after, boolean priming, long retryMillis) {
        if (connection != null) {
            finish(connection);
        }
        OutputStream out = Content.Sink.asOutputStream(response);
        connection = new Connection(response, callback, out);
        try {
            if (priming) {
                write(out, "id: " + id + "_0\nretry: " + retryMillis + "\ndata: \n\n");
            }
            for (Event event : kept) {
                if (event.sequence() > after) {
                    write(out, format(event));
                }
            }
            out.flush();
        } catch (IOException e) {
            dropConnection();
            return;
        }
        if (ended) {
            finish(connection);
            connection = null;
        }
    }

    /** Sends one JSON-RPC frame as an event; kept for resumption whether or not a connection is up. */
    synchronized void send(String frame) {
        if (ended) {
            return;
        }
        Event event = new Event(nextSequence++, frame);
        kept.addLast(event);
        if (kept.size() > MAX_KEPT_EVENTS) {
            kept.removeFirst();
        }
        if (connection != null) {
            try {
                write(connection.out(), format(event));
                connection.out().flush();
            } catch (IOException e) {
                dropConnection();
            }
        }
    }

    /** A comment line: keeps proxies from timing the connection out and finds dead connections. */
    synchronized void keepAlive() {
        if (connection != null && !ended) {
            try {
                write(connection.out(), ": keep-alive\n\n");
                connection.out().flush();
            } catch (IOException e) {
                dropConnection();
            }
        }
    }

    /**
     * The stream's last event was sent: the connection carrying it ends normally. True when there
     * was one, so every event went out on a live connection and nothing is left to resume.
     */
    synchronized boolean end() {
        ended = true;
        if (connection != null) {
            finish(connection);
            connection = null;
            return true;
        }
        return false;
    }

    /** Ends the current connection but not the stream: the client reconnects to resume it. */
    synchronized boolean closeConnection() {
        if (connection == null || ended) {
            return false;
        }
        finish(connection);
        connection = null;
        return true;
    }

    synchronized boolean ended() {
        return ended;
    }

    synchronized boolean connected() {
        return connection != null;
    }

    /** The client's connection failed (not closed by us). */
    synchronized void connectionFailed() {
        if (connection != null) {
            dropConnection();
        }
    }

    private void dropConnection() {
        Connection dead = connection;
        connection = null;
        dead.callback().failed(new IOException("the client's connection closed"));
        onDisconnect.run();
    }

    private String format(Event event) {
        StringBuilder sb = new StringBuilder(event.data().length() + 32);
        sb.append("id: ").append(id).append('_').append(event.sequence()).append('\n');
        sb.append("event: message\n");
        // A frame is one line of JSON (the codec never writes raw newlines), so one data line.
        sb.append("data: ").append(event.data()).append("\n\n");
        return sb.toString();
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void finish(Connection c) {
        try {
            c.out().close();
            c.callback().succeeded();
        } catch (IOException | RuntimeException e) {
            c.callback().failed(e);
        }
    }
}
