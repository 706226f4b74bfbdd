package dev.warden.http.server.internal.stream;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Route;

/**
 * Which messages a stream may drop for a client that reads slower than they come: log and progress
 * notifications sent while a request is handled. They only inform; losing some of them costs the
 * client nothing it needs, whereas cutting its stream would cost it the answer. Answers, requests
 * to the client and every other notification (list changes, cancellations, resource updates) must
 * arrive or the stream is cut.
 */
final class DroppableMessages {

    private DroppableMessages() {
    }

    static boolean droppable(JsonRpcMessage message, Route route) {
        return route instanceof Route.During
                && message instanceof JsonRpcMessage.Notification notification
                && (Logging.MESSAGE.equals(notification.method()) || Progress.NOTIFICATION.equals(notification.method()));
    }
}
