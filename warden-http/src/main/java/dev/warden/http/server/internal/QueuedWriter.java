package dev.warden.http.server.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes one streamed HTTP response from a bounded queue, on its own virtual thread: whoever
 * queues never waits on the network. The thread that sends a message is often shared by many
 * clients (the reader of a shared upstream), so a client that stops reading must cost only
 * itself: {@link #offer} says when its queue is full, and the owner cuts the response.
 *
 * <p>The lock is a {@link ReentrantLock}, held for no I/O; a virtual thread waiting on it does not
 * pin its carrier on JDK 21 (JDK 24 and later no longer pin on monitors either).
 */
final class QueuedWriter {

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

    /**
     * @param onWriteFailed a write failed (the client's connection broke); called on the writer's
     *                      thread, without this writer's lock
     */
    QueuedWriter(Response response, Callback callback, SseStream.Buffer bounds, Runnable onWriteFailed) {
        this.callback = callback;
        this.out = Content.Sink.asOutputStream(response);
        this.bounds = bounds;
        this.onWriteFailed = onWriteFailed;
    }

    /** Starts the writer thread; what was queued before goes out first. */
    void start(String name) {
        lock.lock();
        try {
            writer = Thread.ofVirtual().name(name).start(this::drain);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues bytes; false, and nothing queued, when the bounds would be passed (one message is
     * always taken whatever its size) or the writer is done.
     */
    boolean offer(byte[] bytes) {
        lock.lock();
        try {
            if (dead || closing) {
                return false;
            }
            if (!pending.isEmpty() && (pending.size() >= bounds.maxEvents()
                    || pendingBytes + bytes.length > bounds.maxBytes())) {
                return false;
            }
            pending.addLast(bytes);
            pendingBytes += bytes.length;
            ready.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is waiting to be written. */
    boolean idle() {
        lock.lock();
        try {
            return pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the response normally once what is queued is written. */
    void close() {
        lock.lock();
        try {
            closing = true;
            ready.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the response at once as failed: what is queued is dropped, a blocked write gives up. */
    void fail(Throwable why) {
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
                    out.write(bytes);
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
