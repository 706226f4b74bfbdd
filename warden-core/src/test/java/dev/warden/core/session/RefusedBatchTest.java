package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A batch the negotiated version does not allow is refused with one error that goes where the
 * batch's requests would have been answered (an HTTP transport holds a stream open for them), and
 * its requests are ended: no stream waits for answers that will never come, no id stays in use.
 */
class RefusedBatchTest {

    /** What a transport was asked to send, and where. */
    private record Sent(String frame, Route route) {
    }

    private final BlockingQueue<Sent> sent = new LinkedBlockingQueue<>();
    private final List<RequestId> ended = new CopyOnWriteArrayList<>();
    private Transport.Listener listener;
    private final Transport transport = new Transport() {
        @Override
        public void start(Listener l) {
            listener = l;
        }

        @Override
        public void send(String frame) {
            sent.add(new Sent(frame, Route.UNRELATED));
        }

        @Override
        public void send(String frame, Route route) {
            sent.add(new Sent(frame, route));
        }

        @Override
        public void requestEnded(RequestId request) {
            ended.add(request);
        }

        @Override
        public void close() {
        }
    };
    private final Session session = Session.builder(transport).build();

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void theRefusalOfABatchGoesWhereItsFirstRequestIsAnsweredAndEveryRequestOfItEnds() throws Exception {
        session.start();

        listener.onFrame("""
                [{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":1,"method":"ping"},\
                {"jsonrpc":"2.0","id":"two","method":"ping"}]""".getBytes(StandardCharsets.UTF_8));

        Sent refusal = sent.poll(20, TimeUnit.SECONDS);
        assertThat(refusal).as("the refusal").isNotNull();
        JsonNode error = Json.mapper().readTree(refusal.frame());
        assertThat(error.isObject()).isTrue();
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(error.get("id").isNull()).isTrue();
        assertThat(refusal.route()).isInstanceOfSatisfying(Route.Reply.class,
                reply -> assertThat(reply.request()).isEqualTo(RequestId.of(1)));
        assertThat(ended).containsExactlyInAnyOrder(RequestId.of(1), RequestId.of("two"));
    }
}
