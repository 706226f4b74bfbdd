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
     * Input that is not a valid message. {@code refusal} is what to answer, empty when nothing may
     * be sent back (a malformed response: answering a response would start a loop). {@code reason}
     * is for the local log and the incident only, and never crosses to the peer.
     */
    record Invalid(Optional<Refusal> refusal, String reason) implements Decoded {
        public Invalid {
            refusal = Objects.requireNonNullElse(refusal, Optional.empty());
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The refusal of an invalid frame, not yet an answer: the id when it could be read, the JSON-RPC
     * code (-32700 or -32600) and a fixed message that repeats nothing of the input. The codec has
     * no incident store, so it renders nothing: whoever answers (the session, the HTTP endpoint)
     * records it under a ref and has the one renderer add Warden's code and that ref
     * ({@code ProtocolException.refusing}).
     */
    record Refusal(Optional<RequestId> id, int code, String message) {
        public Refusal {
            id = Objects.requireNonNullElse(id, Optional.empty());
            Objects.requireNonNull(message, "message");
        }
    }
}
