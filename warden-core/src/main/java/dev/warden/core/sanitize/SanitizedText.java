package dev.warden.core.sanitize;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of sanitizing one text: what may go out, what was found (spans refer to the text after
 * control characters were stripped), and what the findings imply for the failure's code (a
 * database error's SQLSTATE mapping) and policy (injection forces strict).
 */
public record SanitizedText(String output, List<Finding> findings, Policy appliedPolicy,
                            Optional<ErrorCode> suggestedCode, boolean truncated)
        implements Sanitized {

    public SanitizedText {
        Objects.requireNonNull(output, "output");
        findings = List.copyOf(findings);
        Objects.requireNonNull(appliedPolicy, "appliedPolicy");
        suggestedCode = Objects.requireNonNullElse(suggestedCode, Optional.empty());
    }

    /** The findings themselves: a text's findings have no other place than their spans. */
    @Override
    public List<Finding> plainFindings() {
        return findings;
    }
}
