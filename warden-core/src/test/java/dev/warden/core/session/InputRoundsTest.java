package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The input-round loop against a peer that asks for input a given number of times. */
class InputRoundsTest {

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private Session client;
    private Session server;

    /** A peer that asks {@code asks} times (each time with a new requestState), then answers. */
    private void peer(int asks) {
        InMemoryTransport.Pair pair = InMemoryTransport.pair();
        AtomicInteger round = new AtomicInteger();
        server = Session.builder(pair.right()).onRequest("tools/call", ctx -> {
            JsonNode params = ctx.params().orElseThrow();
            received.add(params);
            int n = round.incrementAndGet();
            if (n > asks) {
                return Json.object().put("done", n);
            }
            ObjectNode result = Json.object().put("resultType", "input_required").put("requestState", "s" + n);
            result.putObject("inputRequests").putObject("q").put("method", "elicitation/create");
            return result;
        }).build();
        server.start();
        client = Session.builder(pair.left()).build();
        client.start();
    }

    @AfterEach
    void close() {
        client.close();
        server.close();
    }

    private OutgoingRequest send(ObjectNode params) {
        return client.request("tools/call", params);
    }

    private static ObjectNode answer(JsonNode inputRequests) {
        ObjectNode answers = Json.object();
        inputRequests.propertyNames().forEach(key -> answers.putObject(key).put("action", "accept"));
        return answers;
    }

    private static ObjectNode first() {
        return Json.object().put("name", "t");
    }

    @Test
    void eachRoundSendsTheFirstRequestAgainWithTheAnswersAndTheState() throws Exception {
        peer(2);
        InputRounds rounds = new InputRounds("server", InputRounds.MAX_INPUT_ROUNDS, "Cancelled");

        JsonNode result = rounds.run(first(), this::send, InputRoundsTest::answer, Runnable::run).get();

        assertThat(result.path("done").asInt()).isEqualTo(3);
        assertThat(received).hasSize(3);
        assertThat(received.get(0).has("inputResponses")).isFalse();
        assertThat(received.get(2).path("name").asString()).isEqualTo("t");
        assertThat(received.get(2).path("requestState").asString()).isEqualTo("s2");
        assertThat(received.get(2).path("inputResponses").path("q").path("action").asString()).isEqualTo("accept");
    }

    @Test
    void aPeerThatKeepsAskingFailsNamingTheAskerAfterTheLastRequestAllowed() {
        peer(Integer.MAX_VALUE);
        InputRounds rounds = new InputRounds("upstream", InputRounds.MAX_INPUT_ROUNDS + 1, "Cancelled");

        assertThatThrownBy(() -> rounds.runHere(first(), this::send, InputRoundsTest::answer))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IncompatiblePeerException.class)
                .hasMessage("The upstream asked for input more than 16 times");
        assertThat(received).hasSize(17);
    }

    @Test
    void runHereAnswersOnTheCallingThread() throws Exception {
        peer(1);
        Thread caller = Thread.currentThread();
        List<Thread> answeredOn = new CopyOnWriteArrayList<>();
        InputRounds rounds = new InputRounds("server", InputRounds.MAX_INPUT_ROUNDS, "Cancelled");

        rounds.runHere(first(), this::send, requests -> {
            answeredOn.add(Thread.currentThread());
            return answer(requests);
        });

        assertThat(answeredOn).containsExactly(caller);
    }
}
