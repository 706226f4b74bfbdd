package dev.warden.telemetry;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.util.Objects;

/**
 * A JSON-RPC error's message as the peer could see it: the only text {@link Outcome.RpcError} takes
 * (its span status). There is no constructor: a message is {@link #of sanitized} here, or is one
 * Warden's renderer wrote ({@link Outcome#sent}), or there is {@link #none}. So an exception's or an
 * upstream's raw words cannot become a span's status by a slip: a {@code String} does not compile.
 */
public final class SanitizedMessage {

    private static final SanitizedMessage NONE = new SanitizedMessage("");

    private final String text;

    private SanitizedMessage(String text) {
        this.text = text;
    }

    /** No message: the status says the code only (the gateway keeps an upstream's words for the incident). */
    public static SanitizedMessage none() {
        return NONE;
    }

    /** {@code untrusted} (a peer's message, say) as {@code sanitizer} leaves it under {@code policy}. */
    public static SanitizedMessage of(String untrusted, Sanitizer sanitizer, Policy policy) {
        Objects.requireNonNull(untrusted, "untrusted");
        Objects.requireNonNull(sanitizer, "sanitizer");
        Objects.requireNonNull(policy, "policy");
        return new SanitizedMessage(sanitizer.sanitize(untrusted, policy).output());
    }

    /**
     * A message Warden's renderer wrote into an answer (the one place a server's answer is made):
     * it is what the peer received. Only {@link Outcome#sent} vouches for one.
     */
    static SanitizedMessage rendered(String message) {
        return new SanitizedMessage(Objects.requireNonNull(message, "message"));
    }

    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SanitizedMessage m && m.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
