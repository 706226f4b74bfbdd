package dev.warden.http.server.internal.settings;

import dev.warden.http.server.internal.stream.SseStream;
/** The bounds of one session, from the server's configuration. */
public record SessionLimits(SseStream.Buffer streamBuffer, long retainedBytes, int maxPendingRequests) {
    public SessionLimits {
        if (retainedBytes < 1 || maxPendingRequests < 1) {
            throw new IllegalArgumentException("session limits must be positive");
        }
    }
}
