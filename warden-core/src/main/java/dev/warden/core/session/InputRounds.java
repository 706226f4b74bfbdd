package dev.warden.core.session;

import dev.warden.core.error.IncompatiblePeerException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The multi round-trip request of 2026-07-28: a stateless peer that needs input answers
 * {@code resultType: "input_required"} with its {@code inputRequests} (and an opaque
 * {@code requestState}); the asker answers them and sends the request again with
 * {@code inputResponses} and that state, as a new request, until the peer gives its real answer.
 * The client's tool calls and the gateway's calls to a stateless upstream both run this loop.
 *
 * <p>{@code asker} names the peer in the error when it asks too often ("The server asked for input
 * more than 16 times"); {@code maxRequests} is how many requests one call may take in all. The
 * cancel reason is what the peer is told when the caller cancels the round in flight.
 */
public record InputRounds(String asker, int maxRequests, String cancelReason) {

    /** Rounds of input one request may take before the peer is judged to be looping. */
    public static final int MAX_INPUT_ROUNDS = 16;

    public InputRounds {
        Objects.requireNonNull(asker, "asker");
        Objects.requireNonNull(cancelReason, "cancelReason");
        if (maxRequests < 1) {
            throw new IllegalArgumentException("maxRequests must be at least 1, got " + maxRequests);
        }
    }

    /** Sends one round's request (a new request each round, with its own id). */
    @FunctionalInterface
    public interface Send {
        OutgoingRequest send(ObjectNode params);
    }

    /** Answers the peer's {@code inputRequests}, by key; may wait (for a person, for a client). */
    @FunctionalInterface
    public interface Answer {
        ObjectNode answer(JsonNode inputRequests) throws Exception;
    }

    /** Whether a result asks for input instead of answering. */
    public static boolean inputRequired(JsonNode result) {
        return "input_required".equals(result.path("resultType").asString(""));
    }

    /**
     * Runs the rounds: sends {@code params} now (on this thread), and each later round after
     * {@code answer} ran on {@code answering} (never on the thread that read the answer, which must
     * not wait). The future completes with the peer's real answer, or with the failure of a round
     * or of an answer (as thrown); cancelling it cancels the round in flight and sends no more.
     */
    public CompletableFuture<JsonNode> run(ObjectNode params, Send send, Answer answer, Executor answering) {
        Objects.requireNonNull(params, "params");
        AtomicReference<OutgoingRequest> current = new AtomicReference<>();
        CompletableFuture<JsonNode> result = cancellable(current);
        round(params, params, 1, send, answer, answering, current, result);
        return result;
    }

    /** The loop's result: cancelling it cancels the round in flight. */
    private CompletableFuture<JsonNode> cancellable(AtomicReference<OutgoingRequest> current) {
        return new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                boolean cancelled = super.cancel(mayInterruptIfRunning);
                OutgoingRequest round = current.get();
                if (round != null) {
                    round.cancel(cancelReason);
                }
                return cancelled;
            }
        };
    }

    /**
     * Runs the rounds on the calling thread, answers included (a proxy whose answers must go out on
     * the stream of the request it is handling): the same loop as {@link #run}, its answer steps
     * queued to this thread. The peer's failure is an {@link ExecutionException} of it; what the
     * caller's own answer step throws leaves as thrown (a client's refusal is its own answer, not
     * the peer's failure). Interrupted, it cancels the round in flight and rethrows.
     */
    public JsonNode runHere(ObjectNode params, Send send, Answer answer) throws Exception {
        Here here = new Here(answer);
        return here.drive(run(params, send, here, here.steps::add));
    }

    /**
     * {@link #runHere} for a caller that sent the first request itself and holds its answer
     * ({@code firstAnswer}, to {@code first}): the rounds go on from there, that request counted as
     * the first of {@code maxRequests}.
     */
    public JsonNode resumeHere(ObjectNode first, JsonNode firstAnswer, Send send, Answer answer) throws Exception {
        Objects.requireNonNull(first, "first");
        Here here = new Here(answer);
        AtomicReference<OutgoingRequest> current = new AtomicReference<>();
        CompletableFuture<JsonNode> rounds = cancellable(current);
        answered(first, firstAnswer, 1, send, here, here.steps::add, current, rounds);
        return here.drive(rounds);
    }

    /** The rounds driven on the calling thread: its queue of answer steps, and what its own answer threw. */
    private static final class Here implements Answer {
        private final Answer answer;
        private final LinkedBlockingQueue<Runnable> steps = new LinkedBlockingQueue<>();
        private final AtomicReference<Exception> ownFailure = new AtomicReference<>();

        Here(Answer answer) {
            this.answer = answer;
        }

        @Override
        public ObjectNode answer(JsonNode inputRequests) throws Exception {
            try {
                return answer.answer(inputRequests);
            } catch (Exception e) {
                ownFailure.set(e);
                throw e;
            }
        }

        JsonNode drive(CompletableFuture<JsonNode> rounds) throws Exception {
            rounds.whenComplete((value, error) -> steps.add(() -> { }));
            try {
                while (!rounds.isDone()) {
                    steps.take().run();
                }
            } catch (InterruptedException e) {
                rounds.cancel(true);
                throw e;
            }
            try {
                return rounds.get();
            } catch (ExecutionException e) {
                Exception own = ownFailure.get();
                throw own != null && e.getCause() == own ? own : e;
            }
        }
    }

    private void round(ObjectNode first, ObjectNode params, int round, Send send, Answer answer, Executor answering,
                       AtomicReference<OutgoingRequest> current, CompletableFuture<JsonNode> result) {
        if (result.isDone()) {
            return; // cancelled between rounds
        }
        OutgoingRequest request = send.send(params);
        current.set(request);
        request.whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            answered(first, value, round, send, answer, answering, current, result);
        });
    }

    /** The peer answered request number {@code round}: the loop ends, or the next round is answered and sent. */
    private void answered(ObjectNode first, JsonNode value, int round, Send send, Answer answer, Executor answering,
                          AtomicReference<OutgoingRequest> current, CompletableFuture<JsonNode> result) {
        if (!inputRequired(value)) {
            result.complete(value);
            return;
        }
        if (round >= maxRequests) {
            result.completeExceptionally(new IncompatiblePeerException(
                    "The " + asker + " asked for input more than " + MAX_INPUT_ROUNDS + " times"));
            return;
        }
        try {
            answering.execute(() -> {
                try {
                    ObjectNode again = next(first, answer.answer(value.path("inputRequests")), value);
                    round(first, again, round + 1, send, answer, answering, current, result);
                } catch (Exception e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    /** The first request again, with this round's answers and the state the peer asked to get back. */
    private static ObjectNode next(ObjectNode first, ObjectNode answers, JsonNode result) {
        ObjectNode again = first.deepCopy();
        if (!answers.isEmpty()) {
            again.set("inputResponses", answers);
        }
        again.remove("requestState");
        if (result.get("requestState") instanceof JsonNode state && state.isString()) {
            again.set("requestState", state);
        }
        return again;
    }
}
