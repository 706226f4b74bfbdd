package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peer's notifications that have a handler, handled one at a time in the order they arrived,
 * on a thread of their own so a slow handler never holds up the reader. At most {@code max} wait:
 * beyond that they are dropped and counted, not queued until memory runs out.
 */
final class NotificationQueue {

    private static final System.Logger LOG = System.getLogger(Session.class.getName());

    private final Map<String, NotificationHandler> handlers;
    private final Optional<NotificationHandler> fallback;
    private final int max;
    private final ExecutorService executor =
            Executors.newSingleThreadExecutor(Thread.ofVirtual().name("warden-notify").factory());
    /** Notifications handed to {@link #executor} and not yet handled: at most {@link #max}. */
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
            executor.execute(() -> {
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
            return CompletableFuture.runAsync(() -> { }, executor);
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

    /** No more are handled once the session has closed; those already running finish. */
    void shutdown() {
        executor.shutdown();
    }
}
