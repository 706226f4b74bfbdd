package dev.warden.http.server.internal;

/** The bounds of one session, from the server's configuration. */
record SessionLimits(SseStream.Buffer streamBuffer, long retainedBytes, int maxPendingRequests) {
    SessionLimits {
        if (retainedBytes < 1 || maxPendingRequests < 1) {
            throw new IllegalArgumentException("session limits must be positive");
        }
    }
}
