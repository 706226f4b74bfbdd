package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.CredentialFinding;
import java.util.List;
import java.util.Objects;

/**
 * What {@link CredentialRedactor#redact(String)} made of a text: the text with each credential
 * replaced by its kind's marker, and what was found, in text order. When nothing was found,
 * {@code text} is the very instance that was given, so a caller can keep the node it came from.
 */
public record Redaction(String text, List<CredentialFinding> findings) {

    public Redaction {
        Objects.requireNonNull(text, "text");
        findings = List.copyOf(findings);
    }

    /** True when at least one credential was replaced. */
    public boolean changed() {
        return !findings.isEmpty();
    }
}
