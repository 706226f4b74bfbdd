package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Route;
import java.util.Optional;
import java.util.OptionalDouble;
import tools.jackson.databind.JsonNode;

/**
 * One incoming request being handled. Its state moves once, from RUNNING to COMPLETED or to
 * CANCELLED, under this object's lock; progress is sent under the same lock so that no progress
 * notification can follow the response.
 */
final class InFlight implements RequestContext {

    enum State { RUNNING, COMPLETED, CANCELLED }

    private final Session session;
    private final JsonRpcMessage.Request request;
    private final Optional<RequestId> progressToken;
    private State state = State.RUNNING;
    private volatile Thread thread;
    private Runnable onCancel;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    InFlight(Session session, JsonRpcMessage.Request request) {
        this.session = session;
        this.request = request;
        this.progressToken = Progress.tokenOf(request.params());
    }

    void bind(Thread thread) {
        this.thread = thread;
    }

    synchronized boolean complete() {
        if (state != State.RUNNING) {
            return false;
        }
        state = State.COMPLETED;
        return true;
    }

    boolean cancel() {
        Runnable action;
        synchronized (this) {
            if (state != State.RUNNING) {
                return false;
            }
            state = State.CANCELLED;
            action = onCancel;
            onCancel = null;
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
        if (action != null) {
            action.run();
        }
        return true;
    }

    @Override
    public void onCancel(Runnable action) {
        synchronized (this) {
            if (state != State.CANCELLED) {
                onCancel = action;
                return;
            }
        }
        action.run();
    }

    @Override
    public RequestId id() {
        return request.id();
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public Optional<JsonNode> params() {
        return request.params();
    }

    @Override
    public Session session() {
        return session;
    }

    @Override
    public boolean closeStream() {
        return session.closeStream(request.id());
    }

    @Override
    public synchronized boolean cancelled() {
        return state == State.CANCELLED;
    }

    @Override
    public void progress(double progress, OptionalDouble total, Optional<String> message) {
        if (progressToken.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (state != State.RUNNING || !(progress > lastProgress)) {
                return;
            }
            lastProgress = progress;
            session.notifyQuietly(Progress.NOTIFICATION, dev.warden.core.json.Json.tree(
                    new Progress.Params(progressToken.get().toJson(), progress, total, message)),
                    Route.during(request.id()));
        }
    }
}
