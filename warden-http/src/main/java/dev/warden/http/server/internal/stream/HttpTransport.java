package dev.warden.http.server.internal.stream;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.transport.Route;
import dev.warden.core.transport.Transport;

/**
 * A transport of this server (a session's, or a stateless exchange's): every overload of {@code
 * Transport.send} comes down to one, which knows whether the frame may be dropped for a client
 * that reads slower than it comes ({@link DroppableMessages}: told by the message the session
 * encoded, when it hands it over).
 */
public interface HttpTransport extends Transport {

    @Override
    default void send(String frame) {
        send(frame, Route.UNRELATED);
    }

    @Override
    default void send(String frame, Route route) {
        send(frame, route, false);
    }

    /** The session's notifications and answers come here: what they are says whether they may be dropped. */
    @Override
    default void send(String frame, JsonRpcMessage message, Route route) {
        send(frame, route, DroppableMessages.droppable(message, route));
    }

    /** Sends {@code frame} on the stream {@code route} names; a droppable one may be dropped, never waited for. */
    void send(String frame, Route route, boolean droppable);
}
