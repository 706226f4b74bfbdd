package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Yup's {@code ValidationError} as JSON: {@code {"name": "ValidationError", "errors": [msg…], "inner":
 * [{"path": "address.city", "errors": [msg], "message": msg}]}}; with {@code abortEarly} (the default)
 * there is no {@code inner} and the error's own {@code path} and {@code message} are the one violation.
 */
final class YupShape implements ErrorShape {

    @Override
    public String name() {
        return "yup";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode inner = Nodes.array(value, "inner");
        JsonNode errors = Nodes.array(value, "errors");
        if (inner == null || errors == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        if (inner.isEmpty()) {
            violation(out, value);
        }
        for (JsonNode e : Nodes.items(inner)) {
            if (out.full()) {
                break;
            }
            violation(out, e);
        }
        return out.hasViolations() ? out.build() : Optional.empty();
    }

    private static void violation(Extracted.Builder out, JsonNode e) {
        JsonNode path = Nodes.member(e, "path");
        String message = Nodes.text(e, "message");
        if (message == null) {
            JsonNode first = Nodes.array(e, "errors");
            message = first != null && !first.isEmpty() && first.get(0).isString() ? first.get(0).stringValue() : null;
        }
        if (path == null || path.isNull()) {
            out.violation(Optional.of(Pointers.ROOT), message);
        } else if (path.isString()) {
            out.violation(Pointers.fromDotted(path.stringValue()), message);
        }
    }
}
