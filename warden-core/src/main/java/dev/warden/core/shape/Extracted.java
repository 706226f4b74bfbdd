package dev.warden.core.shape;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one {@link ErrorShape} found in an error value.
 *
 * <p><b>Everything here except {@code shape} and {@code code} came from the upstream and is
 * untrusted.</b> Messages are the upstream's words, bounded in length but otherwise as written: the
 * caller of the registry must pass each message (and {@link #message()}) through the sanitizer before
 * anything reaches a peer. Pointers are syntactically valid RFC 6901 JSON pointers built only from
 * identifier-like segments ({@link Pointers}), so they are never a file path or a URL, but their
 * segment names are still the upstream's (compare them with the caller's own argument names before
 * trusting them).
 *
 * @param shape the {@link ErrorShape#name()} that produced this
 * @param code the Warden code the shape's status or type maps to; {@code VALIDATION_ERROR} when there
 *     are violations and the shape named no other code
 * @param violations at most {@link #MAX_VIOLATIONS}, each message at most {@link #MAX_MESSAGE_LENGTH}
 *     characters
 * @param message the shape's top-level detail (a problem's {@code detail}, a Google error's
 *     {@code message}…), at most {@link #MAX_MESSAGE_LENGTH} characters
 * @param retryAfter how long the upstream asked the caller to wait, when it said so
 */
public record Extracted(
        String shape,
        Optional<ErrorCode> code,
        List<Violation> violations,
        Optional<String> message,
        Optional<Duration> retryAfter) {

    /** Enough for a model to fix a call; a hostile upstream cannot make the answer grow without bound. */
    public static final int MAX_VIOLATIONS = 32;

    /** A message longer than this is cut (at a code point boundary) and ends with {@code …}. */
    public static final int MAX_MESSAGE_LENGTH = 500;

    /** Longer hints are not believable and would let an upstream park a caller for days. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(24);

    public Extracted {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(violations, "violations");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (shape.isBlank()) {
            throw new IllegalArgumentException("shape must not be blank");
        }
        violations = List.copyOf(violations);
        if (violations.size() > MAX_VIOLATIONS) {
            throw new IllegalArgumentException("at most " + MAX_VIOLATIONS + " violations, got " + violations.size());
        }
        for (Violation v : violations) {
            if (v.message().length() > MAX_MESSAGE_LENGTH) {
                throw new IllegalArgumentException("violation message longer than " + MAX_MESSAGE_LENGTH);
            }
            if (!Pointers.isSafe(v.pointer())) {
                throw new IllegalArgumentException("not a safe JSON pointer: " + v.pointer());
            }
        }
        if (message.isPresent() && (message.get().isBlank() || message.get().length() > MAX_MESSAGE_LENGTH)) {
            throw new IllegalArgumentException("message must be non-blank and at most " + MAX_MESSAGE_LENGTH);
        }
        if (retryAfter.isPresent()
                && (retryAfter.get().isNegative() || retryAfter.get().compareTo(MAX_RETRY_AFTER) > 0)) {
            throw new IllegalArgumentException("retryAfter must be between 0 and " + MAX_RETRY_AFTER);
        }
        if (code.isEmpty() && violations.isEmpty() && message.isEmpty() && retryAfter.isEmpty()) {
            throw new IllegalArgumentException("an extraction holds at least a code, a violation, a message or a hint");
        }
    }

    /** How useful this is to a model: more violations first, then a code, a retry hint, a message. */
    int weight() {
        return violations.size() * 16 + (code.isPresent() ? 8 : 0) + (retryAfter.isPresent() ? 4 : 0)
                + (message.isPresent() ? 2 : 0);
    }

    Extracted withRetryAfter(Duration hint) {
        return new Extracted(shape, code, violations, message, Optional.of(hint));
    }

    /** Starts an extraction for the shape named {@code shape}; the builder bounds what it is given. */
    public static Builder builder(String shape) {
        return new Builder(shape);
    }

    /**
     * Collects what a shape finds, dropping what cannot be kept safely instead of failing: a violation
     * without a safe pointer, a blank message, violations past {@link #MAX_VIOLATIONS}. Not thread-safe;
     * one per {@link ErrorShape#read} call.
     */
    public static final class Builder {
        private final String shape;
        private final List<Violation> violations = new ArrayList<>();
        private ErrorCode code;
        private String message;
        private Duration retryAfter;

        private Builder(String shape) {
            this.shape = Objects.requireNonNull(shape, "shape");
        }

        /** Sets the code unless one is already set (a shape's first, most specific, signal wins). */
        public Builder code(ErrorCode value) {
            if (code == null) {
                code = Objects.requireNonNull(value, "code");
            }
            return this;
        }

        public Builder code(Optional<ErrorCode> value) {
            value.ifPresent(this::code);
            return this;
        }

        /** Sets the top-level message unless one is set; a blank one is ignored, a long one cut. */
        public Builder message(String value) {
            if (message == null && value != null && !value.isBlank()) {
                message = bound(value);
            }
            return this;
        }

        /** Sets the retry hint unless one is set; a negative one is ignored, a long one capped. */
        public Builder retryAfter(Duration value) {
            if (retryAfter == null && value != null && !value.isNegative()) {
                retryAfter = value.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : value;
            }
            return this;
        }

        public Builder retryAfter(Optional<Duration> value) {
            value.ifPresent(this::retryAfter);
            return this;
        }

        /**
         * Adds a violation at {@code pointer} (from {@link Pointers}); dropped when the pointer is empty
         * (no safe pointer could be built), the message blank, or {@link #MAX_VIOLATIONS} are held.
         */
        public Builder violation(Optional<String> pointer, String message) {
            if (pointer.isPresent() && message != null && !message.isBlank() && !full()
                    && Pointers.isSafe(pointer.get())) {
                Violation v = new Violation(pointer.get(), bound(message));
                if (!violations.contains(v)) {
                    violations.add(v);
                }
            }
            return this;
        }

        /** Whether no more violations will be kept; shapes stop scanning then. */
        public boolean full() {
            return violations.size() >= MAX_VIOLATIONS;
        }

        public boolean hasViolations() {
            return !violations.isEmpty();
        }

        /** The extraction, or empty if nothing was found. */
        public Optional<Extracted> build() {
            if (code == null && !violations.isEmpty()) {
                code = ErrorCode.VALIDATION_ERROR;
            }
            if (code == null && violations.isEmpty() && message == null && retryAfter == null) {
                return Optional.empty();
            }
            return Optional.of(new Extracted(shape, Optional.ofNullable(code), violations,
                    Optional.ofNullable(message), Optional.ofNullable(retryAfter)));
        }

        static String bound(String text) {
            String t = text.strip();
            if (t.length() <= MAX_MESSAGE_LENGTH) {
                return t;
            }
            int end = MAX_MESSAGE_LENGTH - 1;
            if (Character.isHighSurrogate(t.charAt(end - 1))) {
                end--;
            }
            return t.substring(0, end) + "…";
        }
    }
}
