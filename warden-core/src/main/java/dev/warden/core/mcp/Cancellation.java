package dev.warden.core.mcp;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** Records of {@code notifications/cancelled}. */
public final class Cancellation {

    public static final String NOTIFICATION = "notifications/cancelled";

    private Cancellation() {
    }

    /** {@code requestId} stays a tree so that a malformed one can be ignored rather than crash the reader. */
    public record Params(JsonNode requestId, Optional<String> reason) {
        public Params {
            Objects.requireNonNull(requestId, "requestId");
            reason = Objects.requireNonNullElse(reason, Optional.empty());
        }
    }
}
