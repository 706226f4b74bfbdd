package dev.warden.core.error;

import java.util.Objects;

/** A failure after the boundary has classified it: what the peer may see, and the ref that ties it to the log. */
public record CapturedFailure(ToolFailure failure, Ref ref) {
    public CapturedFailure {
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(ref, "ref");
    }
}
