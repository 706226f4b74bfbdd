package dev.warden.core.session;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * JSON-RPC batches, which the negotiated versions before 2025-06-18 allow: each item is handled as
 * if it came alone, and their answers go back together in one batch once the last is ready
 * (nothing when none needs an answer). Where batches are not allowed, the one refusal goes where
 * the batch's first request would have been answered and every request of it ends, so a transport
 * holding a stream open for them (HTTP) answers and frees their ids rather than waiting.
 */
final class Batches {

    private static final String METHOD = "(batch)";

    private final Function<JsonRpcMessage, CompletableFuture<Optional<JsonRpcMessage>>> dispatch;
    private final Answers answers;
    private final Outbox outbox;
    private final Unanswered unanswered;
    private volatile boolean allowed;

    Batches(Function<JsonRpcMessage, CompletableFuture<Optional<JsonRpcMessage>>> dispatch, Answers answers,
            Outbox outbox, Unanswered unanswered) {
        this.dispatch = dispatch;
        this.answers = answers;
        this.outbox = outbox;
        this.unanswered = unanswered;
    }

    void allow(boolean allowed) {
        this.allowed = allowed;
    }

    void receive(Decoded.Batch batch) {
        if (!allowed) {
            List<RequestId> requests = new ArrayList<>();
            for (Decoded item : batch.items()) {
                if (item instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r) {
                    requests.add(r.id());
                }
            }
            outbox.refuseBatch(answers.refusal(Optional.empty(), METHOD, ProtocolException.invalidRequest(
                    "Invalid request: batches are not supported in the negotiated protocol version")), requests);
            return;
        }
        List<CompletableFuture<Optional<JsonRpcMessage>>> replies = new ArrayList<>();
        for (Decoded item : batch.items()) {
            switch (item) {
                case Decoded.Message m -> replies.add(dispatch.apply(m.message()));
                case Decoded.Invalid invalid -> replies.add(CompletableFuture.completedFuture(
                        answers.refusal(invalid).map(JsonRpcMessage.class::cast)));
                // The codec decodes batch items one by one, so this does not occur; answered all the same.
                case Decoded.Batch nested -> replies.add(CompletableFuture.completedFuture(Optional.of(
                        answers.refusal(Optional.empty(), METHOD,
                                ProtocolException.invalidRequest("Invalid request: a batch inside a batch")))));
            }
        }
        unanswered.add();
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
            try {
                List<JsonRpcMessage> out = replies.stream().map(CompletableFuture::join)
                        .flatMap(Optional::stream).toList();
                if (!out.isEmpty()) {
                    outbox.batchReply(out);
                }
                for (Decoded item : batch.items()) {
                    if (item instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Request r) {
                        outbox.requestEnded(r.id());
                    }
                }
            } finally {
                unanswered.answered();
            }
        });
    }
}
