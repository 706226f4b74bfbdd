package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Zod: a {@code ZodError}'s {@code issues} ({@code [{"code": "invalid_format", "path": ["email"],
 * "message": …}]}), also as the root array (the error's own {@code message} is that array as JSON text,
 * which {@link EmbeddedJson} decodes); {@code error.flatten()} ({@code {"formErrors": [], "fieldErrors":
 * {"email": [msg]}}}) and {@code error.format()} ({@code {"_errors": [], "email": {"_errors": [msg]}}}).
 */
final class ZodShape implements ErrorShape {

    /** How deep {@code format()} output is followed; deeper members are not read. */
    private static final int MAX_FORMAT_DEPTH = 8;

    @Override
    public String name() {
        return "zod";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        if (value == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        JsonNode issues = value.isArray() ? value : Nodes.array(value, "issues");
        if (issues != null) {
            for (JsonNode issue : Nodes.items(issues)) {
                if (out.full()) {
                    break;
                }
                // "code" marks a Zod issue; Joi's items have "type", JSON Schema's a "keyword"/"validator".
                JsonNode path = Nodes.array(issue, "path");
                if (path != null && Nodes.text(issue, "code") != null) {
                    out.violation(Pointers.fromSegments(path), Nodes.text(issue, "message"));
                }
            }
            return out.hasViolations() ? out.build() : Optional.empty();
        }
        JsonNode fieldErrors = Nodes.object(value, "fieldErrors");
        JsonNode formErrors = Nodes.array(value, "formErrors");
        if (fieldErrors != null && formErrors != null) {
            for (var entry : fieldErrors.properties()) {
                Optional<String> at = Pointers.append(Pointers.ROOT, entry.getKey());
                for (JsonNode m : Nodes.items(entry.getValue())) {
                    if (m.isString()) {
                        out.violation(at, m.stringValue());
                    }
                }
                if (out.full()) {
                    break;
                }
            }
            for (JsonNode m : Nodes.items(formErrors)) {
                if (m.isString()) {
                    out.violation(Optional.of(Pointers.ROOT), m.stringValue());
                }
            }
            return out.build();
        }
        if (Nodes.array(value, "_errors") != null) {
            format(out, value, Pointers.ROOT, 0);
            return out.build();
        }
        return Optional.empty();
    }

    private static void format(Extracted.Builder out, JsonNode node, String pointer, int depth) {
        for (JsonNode m : Nodes.items(Nodes.array(node, "_errors"))) {
            if (m.isString()) {
                out.violation(Optional.of(pointer), m.stringValue());
            }
        }
        if (depth >= MAX_FORMAT_DEPTH) {
            return;
        }
        int seen = 0;
        for (var entry : node.properties()) {
            if (out.full() || ++seen > Nodes.MAX_ITEMS) {
                return;
            }
            if (!entry.getKey().equals("_errors") && entry.getValue().isObject()) {
                Optional<String> child = Pointers.append(pointer, entry.getKey());
                if (child.isPresent()) {
                    format(out, entry.getValue(), child.get(), depth + 1);
                }
            }
        }
    }
}
