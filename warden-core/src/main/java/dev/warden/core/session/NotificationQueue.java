package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peer's notifications that have a handler, handled one at a time in the order they arrived,
 * on a thread of their own so a slow handler never holds up the reader. At most {@code max} wait:
 * beyond that they are dropped and counted, not queued until memory runs out. The thread is a
 * virtual one started when a notification arrives and ended when none is left, so a session whose
 * peer sends only {@code notifications/initialized} holds no thread for the rest of its life, and
 * its close interrupts nothing.
 */
final class NotificationQueue {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    private final Map<String, NotificationHandler> handlers;
    private final Optional<NotificationHandler> fallback;
    private final int max;
    /** Work handed to the handling thread, in order: handlers, and the marks of {@link #handled()}. */
    private final ConcurrentLinkedQueue<Runnable> work = new ConcurrentLinkedQueue<>();
    /** Whether a handling thread runs (or is about to): at most one at a time. */
    private final AtomicBoolean handling = new AtomicBoolean();
    private volatile boolean closed;
    /** Notifications handed to the handling thread and not yet handled: at most {@link #max}. */
    private final AtomicInteger queued = new AtomicInteger();
    /** Notifications dropped because the queue was full: a peer flooding faster than they are handled. */
    private final AtomicLong dropped = new AtomicLong();

    NotificationQueue(Map<String, NotificationHandler> handlers, Optional<NotificationHandler> fallback, int max) {
        this.handlers = Map.copyOf(handlers);
        this.fallback = fallback;
        this.max = max;
    }

    /**
     * Queues the notification for its handler (or the fallback), which runs within {@code watch};
     * without either it is ignored. {@code watch} ends once it is handled, dropped or ignored.
     */
    void offer(JsonRpcMessage.Notification notification, SessionObserver.Incoming watch) {
        NotificationHandler handler = handlers.get(notification.method());
        NotificationHandler chosen = handler != null ? handler : fallback.orElse(null);
        if (chosen == null) {
            watch.ended(Optional.empty());
            return;
        }
        if (queued.incrementAndGet() > max) {
            // A peer sending faster than its notifications are handled (a log flood to a slow
            // client): beyond the bound they are dropped, not queued until memory runs out.
            queued.decrementAndGet();
            watch.ended(Optional.empty());
            if (dropped.getAndIncrement() % 10_000 == 0) {
                LOG.log(System.Logger.Level.WARNING, "notifications dropped: {0} are waiting for their "
                        + "handler (maxQueuedNotifications); {1} dropped so far", max, dropped.get());
            }
            return;
        }
        try {
            execute(() -> {
                try {
                    watch.during(() -> {
                        chosen.handle(notification.method(), notification.params());
                        return null;
                    });
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "notification handler failed", e);
                } finally {
                    queued.decrementAndGet();
                    watch.ended(Optional.empty());
                }
            });
        } catch (RejectedExecutionException e) {
            queued.decrementAndGet();
            watch.ended(Optional.empty());
            LOG.log(System.Logger.Level.DEBUG, "notification dropped: session closed");
        }
    }

    /** See {@link Session#notificationsHandled()}. */
    CompletableFuture<Void> handled() {
        if (queued.get() == 0) {
            // Nothing received is waiting or running: no trip through the notification thread.
            return CompletableFuture.completedFuture(null);
        }
        try {
            return CompletableFuture.runAsync(() -> { }, this::execute);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    int queued() {
        return queued.get();
    }

    long dropped() {
        return dropped.get();
    }

    /** No more are taken once the session has closed; those already taken are still handled. */
    void shutdown() {
        closed = true;
    }

    private void execute(Runnable task) {
        if (closed) {
            throw new RejectedExecutionException("the session has closed");
        }
        work.add(task);
        if (handling.compareAndSet(false, true)) {
            Thread.ofVirtual().name("warden-notify").start(this::handleAll);
        }
    }

    /** Runs the work in order until none is left; work added as it stops starts the next thread. */
    private void handleAll() {
        do {
            for (Runnable next = work.poll(); next != null; next = work.poll()) {
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    // as an executor's worker dies of it and another takes the next: the order goes on
                    LOG.log(System.Logger.Level.WARNING, "notification handling failed", e);
                }
            }
            handling.set(false);
        } while (!work.isEmpty() && handling.compareAndSet(false, true));
    }
}
