package dev.warden.http.server.internal.stream;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes one streamed HTTP response from a bounded queue, on its own virtual thread, so that whoever
 * queues (often a shared upstream's reader) never waits on the network and a client that stops
 * reading costs only itself. A droppable message (log or progress) is queued only within half the
 * bounds, keeping the other half for what must arrive; {@link #offer} answers
 * {@link Offer#REFUSED}, and the owner cuts the response, when a must-arrive message does not fit
 * or a whole buffer's worth of droppable messages was dropped with no write completed (counted in
 * bytes and messages, not timed). The lock is a {@link ReentrantLock}, held for no I/O (no carrier
 * pinned on JDK 21). Why so: docs/design/slow-clients.md.
 */
public final class QueuedWriter {

    /** What became of an offered message. */
    public enum Offer {
        /** Queued: it will be written. */
        QUEUED,
        /** A droppable message the queue had no room for: dropped, and nothing else changes. */
        DROPPED,
        /** Not taken: the writer is done, or the client fell too far behind; the owner cuts the response. */
        REFUSED
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final Deque<byte[]> pending = new ArrayDeque<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private final Callback callback;
    private final OutputStream out;
    private final SseStream.Buffer bounds;
    private final Runnable onWriteFailed;
    private long pendingBytes;
    /** No more bytes: the writer ends the response once the queue is written. */
    private boolean closing;
    /** Failed or cut: the writer stops at once. */
    private boolean dead;
    private Thread writer;
    /** Writes the writer thread completed; a client that reads makes it move. */
    private final AtomicLong written = new AtomicLong();
    /** The value of {@link #written} when the current run of drops began. */
    private long writtenAtDrops = -1;
    /** Droppable messages dropped, and their bytes, since the writer last completed a write. */
    private long droppedSinceWrite;
    private long droppedBytesSinceWrite;

    /**
     * @param onWriteFailed a write failed (the client's connection broke); called on the writer's
     *                      thread, without this writer's lock
     */
    public QueuedWriter(Response response, Callback callback, SseStream.Buffer bounds, Runnable onWriteFailed) {
        this(Content.Sink.asOutputStream(response), callback, bounds, onWriteFailed);
    }

    /** Writes to {@code out} (each queued message one {@code write}): a reader on another replica ({@link RemoteReaders}). */
    public QueuedWriter(OutputStream out, Callback callback, SseStream.Buffer bounds, Runnable onWriteFailed) {
        this.callback = callback;
        this.out = out;
        this.bounds = bounds;
        this.onWriteFailed = onWriteFailed;
    }

    /** Starts the writer thread; what was queued before goes out first. */
    public void start(String name) {
        lock.lock();
        try {
            writer = Thread.ofVirtual().name(name).start(this::drain);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues bytes that must arrive; false, and nothing queued, when the bounds would be passed
     * (one message is always taken whatever its size) or the writer is done.
     */
    public boolean offer(byte[] bytes) {
        return offer(bytes, false) == Offer.QUEUED;
    }

    /**
     * Queues bytes, or drops them if they are {@code droppable} and the queue is past half its
     * bounds (see the class comment). One message is always taken when the queue is empty.
     */
    public Offer offer(byte[] bytes, boolean droppable) {
        lock.lock();
        try {
            if (dead || closing) {
                return Offer.REFUSED;
            }
            boolean fits = droppable
                    ? fits(bytes.length, bounds.maxEvents() / 2, bounds.maxBytes() / 2)
                    : fits(bytes.length, bounds.maxEvents(), bounds.maxBytes());
            if (fits) {
                pending.addLast(bytes);
                pendingBytes += bytes.length;
                ready.signal();
                return Offer.QUEUED;
            }
            return droppable ? drop(bytes.length) : Offer.REFUSED;
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(int length, int maxEvents, long maxBytes) {
        return pending.isEmpty() || (pending.size() < maxEvents && pendingBytes + length <= maxBytes);
    }

    /** Counts a dropped message; REFUSED once a whole buffer's worth went while no write completed. */
    private Offer drop(int length) {
        long writes = written.get();
        if (writes != writtenAtDrops) { // the client read something since: a new run of drops
            writtenAtDrops = writes;
            droppedSinceWrite = 0;
            droppedBytesSinceWrite = 0;
        }
        droppedSinceWrite++;
        droppedBytesSinceWrite += length;
        if (droppedSinceWrite >= bounds.maxEvents() && droppedBytesSinceWrite >= bounds.maxBytes()) {
            return Offer.REFUSED; // the client is not reading
        }
        return Offer.DROPPED;
    }

    /** Whether nothing is waiting to be written. */
    public boolean idle() {
        lock.lock();
        try {
            return pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the response normally once what is queued is written. */
    public void close() {
        lock.lock();
        try {
            closing = true;
            ready.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the response at once as failed: what is queued is dropped, a blocked write gives up. */
    public void fail(Throwable why) {
        Thread blocked;
        lock.lock();
        try {
            dead = true;
            pending.clear();
            pendingBytes = 0;
            ready.signal();
            blocked = writer;
        } finally {
            lock.unlock();
        }
        if (completed.compareAndSet(false, true)) {
            callback.failed(why);
        }
        if (blocked != null) {
            blocked.interrupt(); // a write blocked on a full socket gives up
        }
    }

    private void drain() {
        try {
            out.flush(); // commits the headers: the client learns at once that its stream is open
            while (true) {
                List<byte[]> batch;
                lock.lock();
                try {
                    while (pending.isEmpty() && !closing && !dead) {
                        ready.awaitUninterruptibly();
                    }
                    if (dead) {
                        return;
                    }
                    if (pending.isEmpty()) { // closing, and everything is written
                        break;
                    }
                    batch = new ArrayList<>(pending);
                    pending.clear();
                    pendingBytes = 0;
                } finally {
                    lock.unlock();
                }
                for (byte[] bytes : batch) {
                    out.write(bytes); // returns once the bytes are handed to the socket
                    written.incrementAndGet();
                }
                out.flush();
            }
            if (completed.compareAndSet(false, true)) {
                out.close();
                callback.succeeded();
            }
        } catch (IOException | RuntimeException e) {
            boolean ours;
            lock.lock();
            try {
                ours = !dead; // not a failure we caused by cutting it
                dead = true;
            } finally {
                lock.unlock();
            }
            if (completed.compareAndSet(false, true)) {
                callback.failed(e);
            }
            if (ours) {
                onWriteFailed.run();
            }
        }
    }
}
