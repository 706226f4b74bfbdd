package dev.warden.client.http;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stateless requests (2026-07-28) in flight, by id: the thread that posts each and, once its
 * answer streams, the stream. Over HTTP such a request is cancelled by closing its stream (or, not
 * yet answered, by interrupting its POST), not with a notification.
 */
final class StatelessCalls {

    private final Map<RequestId, Thread> posters = new ConcurrentHashMap<>();
    private final Map<RequestId, InputStream> streams = new ConcurrentHashMap<>();

    void started(RequestId id, Thread poster) {
        posters.put(id, poster);
    }

    boolean inFlight(RequestId id) {
        return posters.containsKey(id);
    }

    void reading(RequestId id, InputStream stream) {
        streams.put(id, stream);
    }

    void ended(RequestId id) {
        posters.remove(id);
        streams.remove(id);
    }

    /** Cancels the request a {@code notifications/cancelled} names, if it is one of these; true if it was. */
    boolean cancel(JsonRpcMessage.Notification cancelled) {
        Optional<RequestId> id = cancelled.params().flatMap(p -> RequestId.fromJson(p.get("requestId")));
        Thread poster = id.map(posters::remove).orElse(null);
        InputStream stream = id.map(streams::remove).orElse(null);
        if (stream != null) {
            try {
                stream.close(); // ends the HTTP exchange: the server sees the stream close
            } catch (IOException e) {
                // already closed
            }
            return true;
        }
        if (poster != null) {
            poster.interrupt();
            return true;
        }
        return false;
    }
}
