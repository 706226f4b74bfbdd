package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.CredentialFinding;
import java.util.List;

/** Test helper: the text a redaction must produce, built independently of the redactor. */
final class Spans {

    private Spans() {
    }

    /** {@code original} with each finding's span replaced by its marker, and nothing else changed. */
    static String replaced(String original, List<CredentialFinding> findings) {
        StringBuilder out = new StringBuilder();
        int copied = 0;
        for (CredentialFinding f : findings) {
            if (f.offset() < copied) {
                throw new AssertionError("findings overlap or are out of order: " + findings);
            }
            out.append(original, copied, f.offset()).append("[redacted:").append(f.kind().label()).append(']');
            copied = f.end();
        }
        return out.append(original.substring(copied)).toString();
    }
}
