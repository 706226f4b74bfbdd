package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** A session's notifications are handled one at a time, in the order they came, on a thread that lives only while there are some. */
class NotificationQueueTest {

    private static JsonRpcMessage.Notification numbered(int n) {
        return new JsonRpcMessage.Notification("notifications/message", JsonNodeFactory.instance.objectNode().put("n", n));
    }

    @Test
    void notificationsAreHandledInTheOrderTheyCame() throws Exception {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        NotificationQueue queue = new NotificationQueue(
                Map.of("notifications/message", (method, params) -> seen.add(params.orElseThrow().get("n").asInt())),
                Optional.empty(), 10_000);
        for (int n = 0; n < 2_000; n++) {
            queue.offer(numbered(n), SessionObserver.Incoming.NONE);
        }

        queue.handled().get(20, TimeUnit.SECONDS);

        assertThat(seen).hasSize(2_000).isSorted();
    }

    @Test
    void aHandlerThatFailsWithAnErrorDoesNotStopTheNextOne() throws Exception {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        NotificationQueue queue = new NotificationQueue(Map.of("notifications/message", (method, params) -> {
            int n = params.orElseThrow().get("n").asInt();
            if (n == 0) {
                throw new AssertionError("a handler's bug");
            }
            seen.add(n);
        }), Optional.empty(), 10);
        queue.offer(numbered(0), SessionObserver.Incoming.NONE);
        queue.offer(numbered(1), SessionObserver.Incoming.NONE);

        queue.handled().get(20, TimeUnit.SECONDS);

        assertThat(seen).containsExactly(1);
        assertThat(queue.queued()).isZero();
    }

    @Test
    void afterTheSessionClosedANotificationIsNotTakenButItsWatchEnds() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        NotificationQueue queue = new NotificationQueue(
                Map.of("notifications/message", (method, params) -> handled.incrementAndGet()), Optional.empty(), 10);
        queue.shutdown();

        queue.offer(numbered(1), new SessionObserver.Incoming() {
            @Override
            public <T> T during(java.util.concurrent.Callable<T> work) throws Exception {
                return work.call();
            }

            @Override
            public void ended(Optional<JsonRpcMessage.Response> answer) {
                ended.incrementAndGet();
            }
        });

        assertThat(queue.handled()).isCompleted();
        assertThat(handled).hasValue(0);
        assertThat(ended).hasValue(1);
        assertThat(queue.queued()).isZero();
    }
}
