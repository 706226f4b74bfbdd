package dev.warden.telemetry.internal;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The opt-in capture of tool arguments and results: off unless switched on, and then only what the
 * sanitizer leaves of the value (redacted as the structure it is), never the raw value.
 */
public record Capture(boolean enabled, Sanitizer sanitizer, Policy policy) {

    public static final Capture OFF = new Capture(false, Sanitizer.ofDefaults(), Policy.REDACT);

    public Capture {
        Objects.requireNonNull(sanitizer, "sanitizer");
        Objects.requireNonNull(policy, "policy");
    }

    public String sanitized(JsonNode value) {
        return sanitizer.sanitizeJson(value, policy).value().toString();
    }
}
