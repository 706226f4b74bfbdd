package dev.warden.http.server.internal.stream;

import java.util.ArrayDeque;

/**
 * What concerned no request and came before the client opened its GET stream (a list change right
 * after initializing, say; clients open that stream in the background): handed to the stream when
 * it opens rather than lost. Bounded, for clients that never open one: past {@link #MAX} the oldest
 * goes. Guarded by its session's lock (the one that also opens the GET stream).
 */
final class EarlyFrames {

    static final int MAX = 64;
    private static final System.Logger LOG = System.getLogger(EarlyFrames.class.getName());

    private final ArrayDeque<String> frames = new ArrayDeque<>();

    void hold(String frame) {
        frames.addLast(frame);
        if (frames.size() > MAX) {
            frames.removeFirst();
            LOG.log(System.Logger.Level.DEBUG, "message dropped: the client has opened no GET stream for it");
        }
    }

    /** The oldest frame held, taken; null when none is. */
    String poll() {
        return frames.poll();
    }
}
