package dev.warden.gateway.internal;

/**
 * A failure on the way to the upstream (refused by a limit, no connection, a timeout), already
 * recorded as an incident: what the client gets instead of an answer. Not {@link
 * dev.warden.core.error.LocalFailure}, which is the session's own failure before it is recorded.
 */
final class RecordedFailure extends Exception {

    private final ErrorPipeline.Outcome outcome;

    RecordedFailure(ErrorPipeline.Outcome outcome) {
        super(null, null, false, false);
        this.outcome = outcome;
    }

    ErrorPipeline.Outcome outcome() {
        return outcome;
    }
}
