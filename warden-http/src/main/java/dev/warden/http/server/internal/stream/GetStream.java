package dev.warden.http.server.internal.stream;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A session copy's GET stream: what its server sends outside any request goes there; before the
 * client opens one it is held ({@link EarlyFrames}); among replicas, while this copy has no
 * connected GET stream, it goes to the replica holding the client's ({@link GetRoute}): a client
 * whose GET connection broke and reopened on another replica gets this copy's notifications there,
 * not in a stream here nobody reads.
 */
public final class GetStream {

    /** Guarded by this object's monitor for writes; read without it to route a frame. */
    private volatile SseStream stream;
    private final EarlyFrames early = new EarlyFrames();
    private volatile GetRoute route = GetRoute.LOCAL;

    public void route(GetRoute route) {
        this.route = route;
    }

    /** The GET stream opened here, connected or not; null when none is. */
    public SseStream current() {
        return stream;
    }

    /**
     * A new GET stream ({@code create} makes it), unless one is connected; the one it replaces is
     * handed to {@code replaced}, the frames held are sent to it, and the other replicas are told
     * after the lock is left (that is a store write and a broadcast, and the bus's inbox thread
     * waits on this lock in {@link #push}).
     */
    public Optional<SseStream> open(Supplier<SseStream> create, Consumer<SseStream> replaced) {
        SseStream fresh;
        synchronized (this) {
            SseStream previous = stream;
            if (previous != null && previous.connected()) {
                return Optional.empty();
            }
            fresh = create.get();
            if (previous != null) {
                replaced.accept(previous); // its client left; the new GET replaces it
            }
            stream = fresh;
            for (String frame = early.poll(); frame != null; frame = early.poll()) {
                fresh.send(frame); // kept, so sent when the GET attaches
            }
        }
        route.opened();
        return Optional.of(fresh);
    }

    /**
     * A frame of this copy for the GET stream: to the replica holding the client's GET stream when
     * no stream is connected here and another replica is known to hold one, else sent or held here.
     */
    public void send(String frame, boolean droppable) {
        SseStream here = stream;
        if ((here == null || !here.connected()) && route.forward(frame)) {
            return;
        }
        push(frame, droppable);
    }

    /** A frame for this copy's GET stream (another replica's copy sent it here, or this one's): sent or held. */
    public synchronized void push(String frame, boolean droppable) {
        SseStream opened = stream;
        if (opened != null) {
            opened.send(frame, droppable);
            return;
        }
        early.hold(frame);
    }

    /**
     * The client opened its GET stream on another replica: a stream here with no client left is let
     * go (what this copy sends goes there from now on); empty when there is none, or it is connected.
     */
    public synchronized Optional<SseStream> movedAway() {
        SseStream here = stream;
        if (here == null || here.connected()) {
            return Optional.empty();
        }
        stream = null;
        return Optional.of(here);
    }
}
