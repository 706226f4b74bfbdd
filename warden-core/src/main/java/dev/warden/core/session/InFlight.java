package dev.warden.core.session;

import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Progress;
import dev.warden.core.transport.Route;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * One incoming request being handled. Its state moves once, from RUNNING to COMPLETED or to
 * CANCELLED, under this object's lock; progress is sent under the same lock so that no progress
 * notification can follow the response. The lock is a {@link ReentrantLock}, not a monitor: sending
 * may wait for room in the transport's queue, and a virtual thread waiting inside {@code
 * synchronized} pins its carrier on JDK 21 (JDK 24 and later no longer pin there).
 */
final class InFlight implements RequestContext {

    enum State { RUNNING, COMPLETED, CANCELLED }

    private final Session session;
    private final JsonRpcMessage.Request request;
    private final Optional<RequestId> progressToken;
    private final SessionObserver.Incoming watch;
    private final ReentrantLock lock = new ReentrantLock();
    private State state = State.RUNNING;
    private volatile Thread thread;
    private Runnable onCancel;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    InFlight(Session session, JsonRpcMessage.Request request, SessionObserver.Incoming watch) {
        this.session = session;
        this.request = request;
        this.watch = watch;
        this.progressToken = Progress.tokenOf(request.params());
    }

    /** The observation of this request: its handler's work runs within it. */
    SessionObserver.Incoming watch() {
        return watch;
    }

    void bind(Thread thread) {
        this.thread = thread;
    }

    boolean complete() {
        lock.lock();
        try {
            if (state != State.RUNNING) {
                return false;
            }
            state = State.COMPLETED;
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean cancel() {
        Runnable action;
        lock.lock();
        try {
            if (state != State.RUNNING) {
                return false;
            }
            state = State.CANCELLED;
            action = onCancel;
            onCancel = null;
        } finally {
            lock.unlock();
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
        lock.lock();
        try {
            if (state != State.CANCELLED) {
                onCancel = action;
                return;
            }
        } finally {
            lock.unlock();
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
    public boolean cancelled() {
        lock.lock();
        try {
            return state == State.CANCELLED;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void progress(double progress, OptionalDouble total, Optional<String> message) {
        if (progressToken.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            if (state != State.RUNNING || !(progress > lastProgress)) {
                return;
            }
            lastProgress = progress;
            session.notifyQuietly(Progress.NOTIFICATION, dev.warden.core.json.Json.tree(
                    new Progress.Params(progressToken.get().toJson(), progress, total, message)),
                    Route.during(request.id()));
        } finally {
            lock.unlock();
        }
    }
}
