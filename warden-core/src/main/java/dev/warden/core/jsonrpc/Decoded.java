package dev.warden.core.jsonrpc;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What the codec made of one frame of input. Decoding never throws; bad input is a value too. */
public sealed interface Decoded {

    /** A well-formed message. */
    record Message(JsonRpcMessage message) implements Decoded {
        public Message {
            Objects.requireNonNull(message, "message");
        }
    }

    /** A JSON array: each element decoded on its own. An empty array is {@link Invalid}, never an empty batch. */
    record Batch(List<Decoded> items) implements Decoded {
        public Batch {
            items = List.copyOf(items);
            if (items.isEmpty()) {
                throw new IllegalArgumentException("a batch has at least one item");
            }
        }
    }

    /**
     * Input that is not a valid message. {@code reply} is the error response to send, empty when
     * nothing may be sent back (a malformed response: answering a response would start a loop).
     * {@code reason} is for the local log only and never crosses to the peer.
     */
    record Invalid(Optional<JsonRpcMessage.Failure> reply, String reason) implements Decoded {
        public Invalid {
            reply = Objects.requireNonNullElse(reply, Optional.empty());
            Objects.requireNonNull(reason, "reason");
        }
    }
}
