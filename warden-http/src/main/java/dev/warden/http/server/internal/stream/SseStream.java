package dev.warden.http.server.internal.stream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One server-sent-events stream (a POST's response, or a GET's): every event gets an id
 * ({@code <stream>_<n>}) and is kept, within a bound, so a client can resume with
 * {@code Last-Event-ID} on this stream; the stream outlives its connections until its last event.
 * {@link #send} never blocks on the network (it queues for the connection's {@link QueuedWriter}, or hands
 * an answer that is the response's first and last bytes to Jetty's asynchronous write).
 * A dropped droppable message is not kept and gets no number (ids stay consecutive); a stream that
 * cannot keep up is cut ({@code onOverflow}: its requests are cancelled). The lock is a
 * {@link ReentrantLock}, held for no I/O. Why so: docs/design/slow-clients.md.
 */
public final class SseStream {

    /**
     * The bounds of one stream: events and bytes queued for a connection and not yet written
     * (droppable messages past half of them are dropped, anything else past them cuts the
     * stream), and the same for the events kept for resumption (past them the oldest are
     * forgotten). One event is always accepted whatever its size.
     */
    public record Buffer(int maxEvents, long maxBytes) {
        public Buffer {
            if (maxEvents < 1 || maxBytes < 1) {
                throw new IllegalArgumentException("stream buffer bounds must be positive");
            }
        }
    }

    private record Event(long sequence, byte[] bytes) {
    }

    private final String id;
    private final Buffer buffer;
    private final SessionBudget budget;
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<Event> kept = new ArrayDeque<>();
    private long keptBytes;
    private long nextSequence = 1;
    /** The HTTP response carrying the stream for now, with its writer. */
    private QueuedWriter connection;
    private boolean ended;
    /** The stream ended with its last event handed to a live connection ({@link #sendLast}). */
    private boolean endedLive;
    private boolean cut;
    private final Runnable onDisconnect;
    private final Runnable onOverflow;
    private final Runnable onDropped;

    /**
     * @param onDisconnect the client's connection failed (the stream waits to be resumed)
     * @param onOverflow   the client fell too far behind and the stream was cut; called without
     *                     the lock, on the sender's thread: it must not block
     * @param onDropped    a droppable message found no room and was dropped; called without the
     *                     lock, on the sender's thread: it must not block
     */
    public SseStream(String id, Buffer buffer, SessionBudget budget, Runnable onDisconnect, Runnable onOverflow,
              Runnable onDropped) {
        this.id = id;
        this.buffer = buffer;
        this.budget = budget;
        this.onDisconnect = onDisconnect;
        this.onOverflow = onOverflow;
        this.onDropped = onDropped;
    }

    /**
     * What all the streams of one session keep for resumption, in bytes, shared between them: past
     * the bound a stream forgets its oldest events, so a session costs bounded memory however many
     * streams it opened.
     */
    public static final class SessionBudget {
        private final long maxBytes;
        private final java.util.concurrent.atomic.AtomicLong used = new java.util.concurrent.atomic.AtomicLong();

        public SessionBudget(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        void add(long bytes) {
            used.addAndGet(bytes);
        }

        boolean over() {
            return used.get() > maxBytes;
        }

        public long used() {
            return used.get();
        }
    }

    public String id() {
        return id;
    }

    /** The stream id in a Last-Event-ID value ({@code <stream>_<n>}). */
    public static Optional<String> streamOf(String eventId) {
        int underscore = eventId.lastIndexOf('_');
        return underscore > 0 ? Optional.of(eventId.substring(0, underscore)) : Optional.empty();
    }

    /** The event number in a Last-Event-ID value. */
    public static OptionalLong sequenceOf(String eventId) {
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
     * resumed stream) the events after {@code after} are replayed, by the connection's writer.
     *
     * @param priming a priming event (an id and empty data, with the reconnection delay) first:
     *                clients of 2025-11-25 and later resume from it; older clients do not expect it
     */
    public void attach(Response response, Callback callback, long after, boolean priming, long retryMillis) {
        attach(failed -> new QueuedWriter(response, callback, replayBounds(priming), failed), callback, after, priming,
                retryMillis, true);
    }

    /**
     * Carries a POST's new stream on {@code response}, as {@link #attach} does, except that its
     * headers wait for its first event (or a keep-alive) and go out with it: an answer that comes
     * first goes out with the headers and the end of the response in one write.
     */
    public void attachNew(Response response, Callback callback, boolean priming, long retryMillis) {
        attach(failed -> new QueuedWriter(response, callback, replayBounds(priming), failed), callback, 0, priming,
                retryMillis, false);
    }

    /**
     * Carries the stream to a reader on another replica ({@link RemoteReaders}): as a resumption,
     * each event after {@code after} then each new one is one write to {@code out}, within the same
     * bounds (a remote reader that falls behind is cut as a local one is); the writer, to end it.
     */
    public QueuedWriter attachRemote(java.io.OutputStream out, Callback callback, long after) {
        return attach(failed -> new QueuedWriter(out, callback, buffer, failed), callback, after, false, 0, true);
    }

    /** A remote reader left: its connection ends as a broken one does (the stream waits to be resumed). */
    public void readerLeft(QueuedWriter writer) {
        writer.fail(new IOException("the remote reader left"));
        writeFailed(writer);
    }

    private QueuedWriter attach(java.util.function.Function<Runnable, QueuedWriter> writer, Callback callback,
                                long after, boolean priming, long retryMillis, boolean eager) {
        lock.lock();
        try {
            if (connection != null) {
                connection.close();
            }
            if (cut) {
                callback.failed(new IOException("the stream was cut: its client fell behind"));
                return null;
            }
            QueuedWriter[] self = new QueuedWriter[1];
            QueuedWriter c = writer.apply(() -> writeFailed(self[0]));
            self[0] = c;
            connection = c;
            if (priming) {
                c.offer(utf8("id: " + id + "_0\nretry: " + retryMillis + "\ndata: \n\n"));
            }
            for (Event event : kept) {
                if (event.sequence() > after) {
                    c.offer(event.bytes()); // within the bounds: kept is bounded alike
                }
            }
            if (ended) {
                c.close();
                connection = null;
            }
            if (eager) {
                c.start("warden-sse-" + id);
            } else {
                c.startWithFirstBytes("warden-sse-" + id);
            }
            return c;
        } finally {
            lock.unlock();
        }
    }

    /** The writer's bounds: room for the priming event on top of a full replay. */
    private Buffer replayBounds(boolean priming) {
        return priming ? new Buffer(buffer.maxEvents() + 1, buffer.maxBytes() + 256) : buffer;
    }

    /**
     * Sends one JSON-RPC frame as an event that must arrive; kept for resumption whether or not a
     * connection is up. Never blocks on the network (see the class comment).
     */
    public void send(String frame) {
        send(frame, false);
    }

    /**
     * Sends one JSON-RPC frame as an event; a {@code droppable} one (a log or progress
     * notification about a request in flight) is dropped rather than queued when the connection's
     * queue is past half its bounds. Never blocks on the network (see the class comment).
     */
    public void send(String frame, boolean droppable) {
        send(frame, droppable, false);
    }

    /**
     * Sends the stream's last event (the answer to its last request): on a live connection the
     * event and the end of the response go out together, and the stream ends ({@link #end} then
     * has nothing left to do); with no connection up it is kept for the client to resume, as any.
     */
    public void sendLast(String frame) {
        send(frame, false, true);
    }

    private void send(String frame, boolean droppable, boolean last) {
        QueuedWriter.Offer offered;
        QueuedWriter ending = null;
        lock.lock();
        try {
            if (ended || cut) {
                return;
            }
            Event event = new Event(nextSequence, utf8(format(nextSequence, frame)));
            offered = connection == null
                    ? QueuedWriter.Offer.QUEUED // no connection up: kept for the client to resume
                    : connection.offer(event.bytes(), droppable, last); // never blocks
            switch (offered) {
                case QUEUED -> {
                    nextSequence++;
                    keep(event);
                    if (last && connection != null) {
                        ending = connection;
                        connection = null;
                        ended = true;
                        endedLive = true;
                    }
                }
                case DROPPED -> {
                    // not kept and no number taken: as if it had never been sent
                }
                case REFUSED -> cutLocked();
            }
        } finally {
            lock.unlock();
        }
        switch (offered) {
            case DROPPED -> onDropped.run();
            case REFUSED -> onOverflow.run();
            case QUEUED -> {
                if (ending != null) {
                    ending.writeDirect(); // outside the lock: the write is the network's
                }
            }
        }
    }

    private void keep(Event event) {
        kept.addLast(event);
        keptBytes += event.bytes().length;
        budget.add(event.bytes().length);
        while (kept.size() > 1 && (kept.size() > buffer.maxEvents() || keptBytes > buffer.maxBytes() || budget.over())) {
            Event gone = kept.removeFirst();
            keptBytes -= gone.bytes().length;
            budget.add(-gone.bytes().length);
        }
    }

    /** The client fell behind: its connection is failed, the stream ends and remembers nothing. */
    private void cutLocked() {
        cut = true;
        ended = true;
        budget.add(-keptBytes);
        kept.clear();
        keptBytes = 0;
        QueuedWriter c = connection;
        connection = null;
        if (c != null) {
            c.fail(new IOException("the client fell behind: its stream was cut"));
        }
    }

    /** Whether this stream was cut because its client did not read it. */
    boolean wasCut() {
        lock.lock();
        try {
            return cut;
        } finally {
            lock.unlock();
        }
    }

    /** A comment line: keeps proxies from timing the connection out and finds dead connections. */
    public void keepAlive() {
        lock.lock();
        try {
            if (connection != null && !ended && connection.idle()) {
                connection.offer(utf8(": keep-alive\n\n"));
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The stream's last event was sent: the connection carrying it ends normally once its queue is
     * written. True when there was one, so every event goes out on a live connection and nothing
     * is left to resume.
     */
    public boolean end() {
        lock.lock();
        try {
            if (endedLive) {
                return true;
            }
            ended = true;
            if (connection != null) {
                connection.close();
                connection = null;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Frees what the stream keeps for resumption (the stream is no longer resumable). */
    public void forget() {
        lock.lock();
        try {
            budget.add(-keptBytes);
            kept.clear();
            keptBytes = 0;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the current connection but not the stream: the client reconnects to resume it. */
    public boolean closeConnection() {
        lock.lock();
        try {
            if (connection == null || ended) {
                return false;
            }
            connection.close();
            connection = null;
            return true;
        } finally {
            lock.unlock();
        }
    }

    public boolean ended() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    public boolean connected() {
        lock.lock();
        try {
            return connection != null;
        } finally {
            lock.unlock();
        }
    }

    /** The client's connection failed (not closed by us). */
    void connectionFailed() {
        lock.lock();
        try {
            if (connection != null) {
                connection.fail(new IOException("the client's connection closed"));
                connection = null;
                onDisconnect.run();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A write to the client failed: the stream waits for it to resume, if that connection was the current one. */
    private void writeFailed(QueuedWriter writer) {
        lock.lock();
        try {
            if (connection != writer || writer == null) {
                return;
            }
            connection = null;
        } finally {
            lock.unlock();
        }
        onDisconnect.run();
    }

    private String format(long sequence, String data) {
        StringBuilder sb = new StringBuilder(data.length() + 32);
        sb.append("id: ").append(id).append('_').append(sequence).append('\n');
        sb.append("event: message\n");
        // A frame is one line of JSON (the codec never writes raw newlines), so one data line.
        sb.append("data: ").append(data).append("\n\n");
        return sb.toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
