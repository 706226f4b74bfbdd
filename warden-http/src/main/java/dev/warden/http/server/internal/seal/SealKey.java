package dev.warden.http.server.internal.seal;

import java.security.MessageDigest;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One key of a {@link SessionSeal}: its id, in the clear in what it seals so the right key is
 * tried first, and its 32 secret bytes (AES-256). The secret is copied in and out, never printed.
 */
public record SealKey(String id, byte[] secret) {

    public static final int SECRET_BYTES = 32;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,16}");

    public SealKey {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a session key id must be 1 to 16 of A-Z, a-z, 0-9, '_' and '-', got "
                    + (id == null ? "none" : "\"" + id.replaceAll("[^ -~]", "?") + "\""));
        }
        Objects.requireNonNull(secret, "secret");
        if (secret.length != SECRET_BYTES) {
            throw new IllegalArgumentException("session key " + id + " must be " + SECRET_BYTES + " bytes, got "
                    + secret.length);
        }
        secret = secret.clone();
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SealKey k && k.id.equals(id) && MessageDigest.isEqual(k.secret, secret);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "SealKey[" + id + "]";
    }
}
