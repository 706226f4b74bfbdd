package dev.warden.core.incident;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The one platform thread that runs a background store's passes, started with the first. A pass
 * is handed over with one unpark and the thread parks between passes: two futex calls a pass,
 * where a virtual thread per pass cost about seven (the carrier pool's own wake-ups) on every
 * failing call at one client. The store schedules at most one pass at a time.
 */
final class WriterThread implements Executor, AutoCloseable {

    private final String name;
    private final AtomicReference<Runnable> next = new AtomicReference<>();
    private final AtomicReference<Thread> thread = new AtomicReference<>();
    private volatile boolean closed;

    WriterThread(String name) {
        this.name = name;
    }

    @Override
    public void execute(Runnable pass) {
        if (closed) {
            throw new RejectedExecutionException("the incident writer has stopped");
        }
        next.set(pass);
        Thread t = thread.get();
        if (t == null) {
            // Daemon: a store left open must not keep the JVM alive; close and the exit hook write what is queued.
            Thread fresh = Thread.ofPlatform().name(name).daemon().unstarted(this::run);
            if (thread.compareAndSet(null, fresh)) {
                fresh.start();
            }
            t = thread.get();
        }
        LockSupport.unpark(t);
    }

    private void run() {
        while (!closed) {
            Runnable pass = next.getAndSet(null);
            if (pass != null) {
                try {
                    pass.run();
                } catch (RuntimeException e) {
                    // the pass marks what it could not write; the thread stays for the next one
                }
            } else {
                LockSupport.park(this);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread t = thread.get();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
