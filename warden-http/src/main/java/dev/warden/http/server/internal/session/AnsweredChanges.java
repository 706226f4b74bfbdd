package dev.warden.http.server.internal.session;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests of a session copy that change it for the other replicas (log level, subscriptions),
 * each with what to do once its server has answered it with success: only then is the change
 * recorded and told to the others. A refused or failed one (an unknown URI, a denied one) is never
 * replayed elsewhere, and a client repeating it grows nothing.
 */
final class AnsweredChanges {

    private final Map<RequestId, Runnable> waiting = new ConcurrentHashMap<>();

    /** {@code then} runs when request {@code id} of this copy is answered with success. */
    void expect(RequestId id, Runnable then) {
        waiting.put(id, then);
    }

    /** A frame the copy sends in answer (one response, or a batch's): the changes it answered with success run. */
    void answered(String frame) {
        if (waiting.isEmpty()) {
            return;
        }
        switch (JsonRpcCodec.decode(frame)) {
            case Decoded.Message m -> succeeded(m.message());
            case Decoded.Batch batch -> batch.items().forEach(item -> {
                if (item instanceof Decoded.Message m) {
                    succeeded(m.message());
                }
            });
            case Decoded.Invalid invalid -> { }
        }
    }

    /** The request is over, answered or not: nothing runs for it after this. */
    void ended(RequestId id) {
        waiting.remove(id);
    }

    private void succeeded(JsonRpcMessage message) {
        if (message instanceof JsonRpcMessage.Success success) {
            Runnable then = waiting.remove(success.id());
            if (then != null) {
                then.run();
            }
        }
    }
}
