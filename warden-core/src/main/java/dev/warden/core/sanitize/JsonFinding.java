package dev.warden.core.sanitize;

import java.util.List;
import java.util.Objects;

/**
 * A finding in a JSON value, and where it is. {@code pointers} holds one JSON Pointer (RFC 6901) per
 * level of encoding: the first points into the value that was sanitized; when the string there held
 * JSON itself (an object serialized into a string, perhaps twice), the next points into that decoded
 * JSON, and so on. {@code inKey} says the finding is in the name of the member the last pointer
 * designates rather than in its value. The finding's span refers to that string (key or value) after
 * control characters were stripped.
 */
public record JsonFinding(List<String> pointers, boolean inKey, Finding finding) {

    public JsonFinding {
        pointers = List.copyOf(pointers);
        if (pointers.isEmpty()) {
            throw new IllegalArgumentException("a finding needs the pointer of the string it is in");
        }
        Objects.requireNonNull(finding, "finding");
    }

    /** The pointer into the value that was sanitized (the outermost level). */
    public String pointer() {
        return pointers.getFirst();
    }

    /** Whether the finding is inside a string that held encoded JSON. */
    public boolean embedded() {
        return pointers.size() > 1;
    }

    public Category category() {
        return finding.category();
    }
}
