package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Joi's {@code ValidationError} as JSON: {@code {"details": [{"message": "\"email\" must be a valid
 * email", "path": ["email"], "type": "string.email", "context": …}]}} (the {@code _original} value and
 * each {@code context} are the caller's input and are not read).
 */
final class JoiShape implements ErrorShape {

    @Override
    public String name() {
        return "joi";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode details = Nodes.array(value, "details");
        if (details == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        for (JsonNode d : Nodes.items(details)) {
            if (out.full()) {
                break;
            }
            JsonNode path = Nodes.array(d, "path");
            if (path != null && Nodes.text(d, "type") != null) {
                out.violation(Pointers.fromSegments(path), Nodes.text(d, "message"));
            }
        }
        return out.hasViolations() ? out.build() : Optional.empty();
    }
}
