package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;
import java.util.Objects;

/**
 * A finding in a JSON value, and where it is: the string's {@link JsonLocation} (one JSON Pointer per
 * level of encoding, when the string sat in JSON encoded into a string), and whether the finding is in
 * the name of the member there rather than in its value. The finding's span refers to that string
 * (name or value) after control characters were stripped.
 */
public record JsonFinding(JsonLocation location, boolean inKey, Finding finding) {

    public JsonFinding {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(finding, "finding");
    }

    /** The pointer into the value that was sanitized (the outermost level). */
    public String pointer() {
        return location.pointer();
    }

    /** One pointer per level of encoding, the outermost first. */
    public List<String> pointers() {
        return location.pointers();
    }

    /** Whether the finding is inside a string that held encoded JSON. */
    public boolean embedded() {
        return location.embedded();
    }

    public Category category() {
        return finding.category();
    }
}
