package dev.warden.core.sanitize.detection;

import java.util.Objects;

/**
 * One credential {@code CredentialRedactor} found: its kind and its span {@code [offset,
 * offset + length)} in UTF-16 units of the text that was given (not of the redacted text).
 */
public record CredentialFinding(CredentialKind kind, int offset, int length) {

    public CredentialFinding {
        Objects.requireNonNull(kind, "kind");
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("bad span: offset " + offset + ", length " + length);
        }
    }

    /** The offset just past the credential. */
    public int end() {
        return offset + length;
    }
}
