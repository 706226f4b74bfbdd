package dev.warden.core.mcp;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** Records of server-to-client logging ({@code logging/setLevel}, {@code notifications/message}). */
public final class Logging {

    public static final String SET_LEVEL = "logging/setLevel";
    public static final String MESSAGE = "notifications/message";

    private Logging() {
    }

    /** RFC 5424 severities, least severe first, so {@code ordinal()} orders them. */
    public enum Level {
        DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Level fromWire(String wire) {
            return named(wire).orElseThrow(() -> new IllegalArgumentException("unknown logging level"));
        }

        /** The level of this wire name; empty for a name the protocol does not know. */
        public static Optional<Level> named(String wire) {
            return Arrays.stream(values()).filter(l -> l.wire().equals(wire)).findFirst();
        }

        public boolean atLeast(Level other) {
            return ordinal() >= other.ordinal();
        }
    }

    public record SetLevelParams(Level level) {
        public SetLevelParams {
            Objects.requireNonNull(level, "level");
        }
    }

    /** A log message sent to the client: its data must be trusted or sanitized, like any error text. */
    public record MessageParams(Level level, Optional<String> logger, JsonNode data) {
        public MessageParams {
            Objects.requireNonNull(level, "level");
            logger = Objects.requireNonNullElse(logger, Optional.empty());
            Objects.requireNonNull(data, "data");
        }
    }
}
