package dev.warden.core.error;

import java.util.Objects;
import java.util.Optional;

/** Where a failure happened: the JSON-RPC method and, for tool calls, the tool. */
public record FailureContext(String method, Optional<String> tool) {
    public FailureContext {
        Objects.requireNonNull(method, "method");
        tool = Objects.requireNonNullElse(tool, Optional.empty());
    }

    public static FailureContext of(String method) {
        return new FailureContext(method, Optional.empty());
    }

    public static FailureContext tool(String method, String tool) {
        return new FailureContext(method, Optional.of(tool));
    }
}
