package dev.warden.core.sanitize;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The result of sanitizing a JSON value as the structure it is ({@link Sanitizer#sanitizeJson}): a
 * value of the same shape, what was found and where, the policy that was applied (injection anywhere
 * makes the whole value strict), the code the findings suggest (the first database error's mapping,
 * in document order), and whether the output budget cut text. When nothing was changed, {@code value}
 * is the very node that was given, so it serializes byte for byte as before: whether anything at all
 * changed (control characters stripped too, which are no finding) is {@code value() != input}.
 */
public record SanitizedJson(JsonNode value, List<JsonFinding> findings, Policy appliedPolicy,
                            Optional<ErrorCode> suggestedCode, boolean truncated)
        implements Sanitized {

    public SanitizedJson {
        Objects.requireNonNull(value, "value");
        findings = List.copyOf(findings);
        Objects.requireNonNull(appliedPolicy, "appliedPolicy");
        suggestedCode = Objects.requireNonNullElse(suggestedCode, Optional.empty());
    }

    @Override
    public List<Finding> plainFindings() {
        return findings.stream().map(JsonFinding::finding).toList();
    }
}
