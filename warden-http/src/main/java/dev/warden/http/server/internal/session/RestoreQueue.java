package dev.warden.http.server.internal.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the other replicas tell a copy while it is being restored here (a change, an end): queued
 * until the copy's server is connected, initialized and has the record replayed, then run in the
 * order it came, so nothing reaches the copy before its initialize, and nothing older than the
 * record is replayed over it.
 */
final class RestoreQueue {

    /** Guarded by the lock (a lock, so no carrier is pinned on JDK 21). */
    private final Map<HttpSessionTransport, List<Runnable>> queued = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();

    /** The copy is being restored: what {@link #whenReady} gets for it waits for {@link #ready}. */
    void restoring(HttpSessionTransport copy) {
        lock.lock();
        try {
            queued.put(copy, new ArrayList<>());
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} now, or queues it while the copy is being restored. */
    void whenReady(HttpSessionTransport copy, Runnable action) {
        lock.lock();
        try {
            List<Runnable> queue = queued.get(copy);
            if (queue != null) {
                queue.add(action);
                return;
            }
        } finally {
            lock.unlock();
        }
        action.run();
    }

    /**
     * The copy is restored: what was queued runs, in order, outside the lock (an end takes the
     * sessions' lock, which is held where {@link #forget} is called); what comes meanwhile queues
     * behind it, and from the moment the queue is found empty everything runs at once.
     */
    void ready(HttpSessionTransport copy) {
        while (true) {
            List<Runnable> batch;
            lock.lock();
            try {
                List<Runnable> queue = queued.get(copy);
                if (queue == null || queue.isEmpty()) {
                    queued.remove(copy);
                    return;
                }
                batch = List.copyOf(queue);
                queue.clear();
            } finally {
                lock.unlock();
            }
            batch.forEach(Runnable::run);
        }
    }

    /** The copy is gone (its restore failed, or it ended): nothing of it is kept. */
    void forget(HttpSessionTransport copy) {
        lock.lock();
        try {
            queued.remove(copy);
        } finally {
            lock.unlock();
        }
    }
}
