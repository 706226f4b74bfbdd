package dev.warden.core.sanitize.detection;

import java.util.Objects;

/**
 * One sensitive span in a text: {@code [start, end)} in UTF-16 units of the text that was scanned
 * (after control characters were stripped). {@code kind} is finer than the category
 * ({@code aws-access-key}, {@code java-frame}, {@code private-ip}) and names the placeholder.
 */
public record Finding(Category category, String kind, int start, int end) {

    /** The kind of a whole database message of a known shape: the one finding REDACT keeps. */
    public static final String DATABASE_MESSAGE = "database-message";

    public Finding {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(kind, "kind");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
        }
    }

    public int length() {
        return end - start;
    }

    /**
     * Whether {@code Policy.REDACT} replaces this span. All findings are replaced but a database
     * message of a known shape, which is kept as the frame its names sit in (those names, the
     * driver's prefix and the rest of its trace are findings of their own, and are replaced): what
     * would reach the model is what the other findings leave, so a leak is a finding REDACT replaces.
     */
    public boolean replacedByRedact() {
        return !kind.equals(DATABASE_MESSAGE);
    }
}
