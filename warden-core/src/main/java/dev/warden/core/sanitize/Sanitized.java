package dev.warden.core.sanitize;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;
import java.util.Optional;

/**
 * What sanitizing found and did, whatever was sanitized: a text ({@link SanitizedText}) or a JSON value as
 * the structure it is ({@link SanitizedJson}).
 */
public sealed interface Sanitized permits SanitizedText, SanitizedJson {

    Policy appliedPolicy();

    Optional<ErrorCode> suggestedCode();

    /** Whether the output budget cut text. */
    boolean truncated();

    /** The findings without their places (for audit and incidents, which take text findings). */
    List<Finding> plainFindings();

    /**
     * True when the output differs from the input in substance (something was found or cut). Control
     * characters stripped are no finding.
     */
    default boolean changed() {
        return truncated() || !plainFindings().isEmpty();
    }

    default boolean has(Category category) {
        return plainFindings().stream().anyMatch(f -> f.category() == category);
    }
}
