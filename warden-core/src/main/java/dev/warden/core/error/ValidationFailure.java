package dev.warden.core.error;

import java.util.List;
import java.util.stream.Collectors;

/** Arguments failed validation; each violation names where and why, one line each. */
public final class ValidationFailure extends ToolFailure {

    private final List<Violation> violations;

    public ValidationFailure(List<Violation> violations) {
        super(ErrorCode.VALIDATION_ERROR, lines(violations), null);
        this.violations = List.copyOf(violations);
    }

    private static String lines(List<Violation> violations) {
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("violations must not be empty");
        }
        return violations.stream().map(Violation::line).collect(Collectors.joining("\n"));
    }

    public List<Violation> violations() {
        return violations;
    }
}
