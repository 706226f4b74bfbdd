package dev.warden.core.cluster;

import dev.warden.core.json.Json;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Asks that wait for an answer, over a {@link ReplicaBus}: {@link #call} sends a body to one
 * replica's {@link #serve served} topic and completes with what it answers, or fails with
 * {@link ReplicaUnreachableException} when the bus cannot send, the replica is down, or the
 * deadline passes. The bus is at most once, so an ask is too: a caller that must not act twice
 * never retries an ask whose answer was lost.
 */
public final class ReplicaCalls {

    private static final String REPLIES = "calls.reply";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ReplicaBus bus;
    private final Map<String, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();

    private ReplicaCalls(ReplicaBus bus) {
        this.bus = bus;
        bus.on(REPLIES, (from, body) -> replied(body));
    }

    /**
     * The one {@code ReplicaCalls} of {@code bus} in this process, made on first use: every
     * component that asks over the same bus (the HTTP endpoint's sessions, the gateway's parked
     * calls) must share it, since each instance takes the bus's replies topic for itself and a
     * second would take the first one's replies.
     */
    public static ReplicaCalls shared(ReplicaBus bus) {
        Objects.requireNonNull(bus, "bus");
        synchronized (SHARED) {
            return SHARED.computeIfAbsent(bus, ReplicaCalls::new);
        }
    }

    /** By identity: a bus is one replica's membership, whatever it equals. */
    private static final Map<ReplicaBus, ReplicaCalls> SHARED = new java.util.IdentityHashMap<>();

    /** Asks over {@code bus} (one {@code ReplicaCalls} per bus: it takes the replies topic; see {@link #shared}). */
    public static ReplicaCalls of(ReplicaBus bus) {
        return new ReplicaCalls(Objects.requireNonNull(bus, "bus"));
    }

    /**
     * Answers asks on {@code topic} with {@code answer}, run on a virtual thread of its own (it may
     * block); an exception it throws reaches the asker as a failure naming only the topic.
     */
    public void serve(String topic, Function<String, String> answer) {
        ReplicaBus.word("topic", topic);
        Objects.requireNonNull(answer, "answer");
        bus.on(topic, (from, body) -> Thread.ofVirtual().name("warden-replica-ask").start(() -> {
            JsonNode ask = parse(body);
            ObjectNode reply = Json.object();
            reply.put("c", ask.path("c").asString(""));
            try {
                reply.put("b", answer.apply(ask.path("b").asString("")));
            } catch (RuntimeException e) {
                reply.put("e", "replica " + bus.self() + " could not answer on " + topic);
            }
            bus.send(from, REPLIES, Json.write(reply));
        }));
    }

    /** Sends {@code body} to {@code replica}'s {@code topic}; completes with its answer within {@code timeout}. */
    public CompletableFuture<String> call(String replica, String topic, String body, Duration timeout) {
        ReplicaBus.word("replica", replica);
        ReplicaBus.word("topic", topic);
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(timeout, "timeout");
        String correlation = HexFormat.of().formatHex(random());
        CompletableFuture<String> answer = new CompletableFuture<>();
        waiting.put(correlation, answer);
        answer.whenComplete((v, e) -> waiting.remove(correlation));
        if (!bus.alive(replica)) {
            answer.completeExceptionally(new ReplicaUnreachableException("replica " + replica + " is down"));
            return answer;
        }
        ObjectNode ask = Json.object();
        ask.put("c", correlation);
        ask.put("b", body);
        if (!bus.send(replica, topic, Json.write(ask))) {
            answer.completeExceptionally(new ReplicaUnreachableException("the replicas' bus is unreachable"));
            return answer;
        }
        return answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionallyCompose(e ->
                CompletableFuture.failedFuture(e instanceof java.util.concurrent.TimeoutException
                        ? new ReplicaUnreachableException("replica " + replica + " did not answer in " + timeout)
                        : e));
    }

    private static byte[] random() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** A message off the bus; a malformed one reads as empty (it then matches no ask). */
    private static JsonNode parse(String body) {
        try {
            return Json.mapper().readTree(body);
        } catch (RuntimeException e) {
            return Json.object();
        }
    }

    private void replied(String body) {
        JsonNode reply = parse(body);
        CompletableFuture<String> answer = waiting.remove(reply.path("c").asString(""));
        if (answer == null) {
            return; // answered after its deadline, or not ours
        }
        if (reply.has("e")) {
            answer.completeExceptionally(new ReplicaUnreachableException(reply.path("e").asString("")));
        } else {
            answer.complete(reply.path("b").asString(""));
        }
    }
}
