package dev.warden.core.identity;

/**
 * A bearer token as the caller presented it, held only to exchange it (RFC 8693) for an upstream's
 * own token. Its {@link #toString()} never shows it, so no log or record that prints a
 * {@link Caller} can leak it.
 */
public final class PresentedToken {

    private final String value;

    public PresentedToken(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a token is needed");
        }
        this.value = value;
    }

    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return "[token]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PresentedToken t && t.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
