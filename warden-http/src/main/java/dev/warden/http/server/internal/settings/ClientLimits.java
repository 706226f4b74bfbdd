package dev.warden.http.server.internal.settings;

import dev.warden.http.server.internal.stream.SseStream;
/**
 * How much clients can make the server hold: sessions in total and per remote address, and
 * per session the requests in flight and the events buffered and kept for its streams.
 */
public record ClientLimits(int maxSessions, int maxSessionsPerAddress, int maxPendingRequests, int streamBufferEvents,
                           long streamBufferBytes, long retainedBytesPerSession) {
    public ClientLimits {
        if (maxSessions < 1 || maxSessionsPerAddress < 1) {
            throw new IllegalArgumentException("session caps must be positive");
        }
    }

    public SessionLimits session() {
        return new SessionLimits(streamBuffer(), retainedBytesPerSession, maxPendingRequests);
    }

    /** What one event stream may hold for a client that reads slower than the server sends. */
    public SseStream.Buffer streamBuffer() {
        return new SseStream.Buffer(streamBufferEvents, streamBufferBytes);
    }
}
