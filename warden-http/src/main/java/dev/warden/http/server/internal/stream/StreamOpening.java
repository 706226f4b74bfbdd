package dev.warden.http.server.internal.stream;

/** What the requests of a POST get from their session: a stream for their answers, or why not. */
public sealed interface StreamOpening {

    /** Why a POST's requests cannot be taken. */
    enum Refusal { DUPLICATE_ID, TOO_MANY_PENDING, CLOSED }

    record Opened(SseStream stream) implements StreamOpening {
    }

    record Refused(Refusal why) implements StreamOpening {
    }
}
