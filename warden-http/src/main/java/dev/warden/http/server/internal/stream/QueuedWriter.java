package dev.warden.http.server.internal.stream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
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
 *
 * <p>A response's last bytes go out in one write with its end. A POST's answer stream starts its
 * thread with its first bytes ({@link #startWithFirstBytes}), its headers going with them, as the
 * reference server's do; when those bytes are its last too (an answer that came before anything
 * else), the sender writes them itself, without blocking (Jetty's asynchronous write): a quick answer
 * costs one system call and no thread hand-off. Other streams commit their headers at once.
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
    /** The response itself, for the write that ends it; absent for a remote reader's stream. */
    private final Optional<Content.Sink> sink;
    /** The writer thread's name, once started; it runs from then on, or from the first bytes on. */
    private String name;
    /** Whether the headers go out at once rather than with the first bytes. */
    private boolean eager;
    /** The last bytes, handed over for the sender to write itself ({@link #writeDirect}). */
    private byte[] direct;
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
        this(Content.Sink.asOutputStream(response), Optional.of(response), callback, bounds, onWriteFailed);
    }

    /** Writes to {@code out} (each queued message one {@code write}): a reader on another replica ({@link RemoteReaders}). */
    public QueuedWriter(OutputStream out, Callback callback, SseStream.Buffer bounds, Runnable onWriteFailed) {
        this(out, Optional.empty(), callback, bounds, onWriteFailed);
    }

    private QueuedWriter(OutputStream out, Optional<Content.Sink> sink, Callback callback,
                         SseStream.Buffer bounds, Runnable onWriteFailed) {
        this.callback = callback;
        this.out = out;
        this.sink = sink;
        this.bounds = bounds;
        this.onWriteFailed = onWriteFailed;
    }

    /** Starts the writer thread, which commits the headers at once; what was queued before goes out first. */
    public void start(String name) {
        start(name, true);
    }

    /**
     * Lets the writer thread run from the first bytes queued (now, if some are): the headers go out
     * with them, and last bytes that come first may be written by their sender (see the class comment).
     */
    public void startWithFirstBytes(String name) {
        start(name, false);
    }

    private void start(String name, boolean eager) {
        lock.lock();
        try {
            this.name = name;
            this.eager = eager;
            startIfDue();
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: the thread starts once started and given something to do. */
    private void startIfDue() {
        if (writer == null && name != null && direct == null && !dead
                && (eager || !pending.isEmpty() || closing)) {
            writer = Thread.ofVirtual().name(name).start(this::drain);
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
        return offer(bytes, droppable, false);
    }

    /**
     * Queues bytes as {@link #offer(byte[], boolean)} does; when {@code last}, they end the response
     * (as {@link #close} would after them). Last bytes that are the response's first too are held for
     * the sender to write itself once it let go of its own lock: it must then call {@link #writeDirect}.
     */
    public Offer offer(byte[] bytes, boolean droppable, boolean last) {
        lock.lock();
        try {
            if (dead || closing) {
                return Offer.REFUSED;
            }
            if (last && writer == null && name != null && !eager && sink.isPresent() && pending.isEmpty()) {
                direct = bytes;
                closing = true;
                return Offer.QUEUED;
            }
            boolean fits = droppable
                    ? fits(bytes.length, bounds.maxEvents() / 2, bounds.maxBytes() / 2)
                    : fits(bytes.length, bounds.maxEvents(), bounds.maxBytes());
            if (fits) {
                pending.addLast(bytes);
                pendingBytes += bytes.length;
                closing = last;
                startIfDue();
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
            startIfDue();
            ready.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the last bytes {@link #offer(byte[], boolean, boolean)} held, headers and end with them,
     * in one asynchronous write that never blocks the caller; nothing if none are held.
     */
    public void writeDirect() {
        byte[] bytes;
        lock.lock();
        try {
            bytes = direct;
            if (bytes == null || dead) {
                return;
            }
        } finally {
            lock.unlock();
        }
        sink.orElseThrow().write(true, ByteBuffer.wrap(bytes), Callback.from(() -> {
            written.incrementAndGet();
            if (completed.compareAndSet(false, true)) {
                callback.succeeded();
            }
        }, this::failedWrite));
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
            if (eager) {
                out.flush(); // commits the headers: the client learns at once that its stream is open
            }
            while (true) {
                List<byte[]> batch;
                boolean ending;
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
                    ending = closing; // nothing is queued after closing: this batch is the last
                } finally {
                    lock.unlock();
                }
                if (ending && sink.isPresent()) {
                    // Headers (if not sent yet), the events and the end of the body in one write.
                    Content.Sink.write(sink.get(), true, joined(batch));
                    written.addAndGet(batch.size());
                    if (completed.compareAndSet(false, true)) {
                        callback.succeeded();
                    }
                    return;
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
            failedWrite(e);
        }
    }

    private void failedWrite(Throwable e) {
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

    private static ByteBuffer joined(List<byte[]> batch) {
        if (batch.size() == 1) {
            return ByteBuffer.wrap(batch.get(0));
        }
        int size = 0;
        for (byte[] bytes : batch) {
            size += bytes.length;
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        batch.forEach(all::put);
        return all.flip();
    }
}
