package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * class-validator's {@code ValidationError[]} as JSON (what NestJS's {@code ValidationPipe} sees):
 * {@code [{"property": "email", "constraints": {"isEmail": "email must be an email"}, "children": [...]}]},
 * one violation per constraint, nested {@code children} under their parent's pointer. The
 * {@code target} and {@code value} members are the caller's input and are not read.
 */
final class ClassValidatorShape implements ErrorShape {

    /** Nesting followed through {@code children}. */
    private static final int MAX_DEPTH = 8;

    @Override
    public String name() {
        return "class-validator";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode list = value != null && value.isArray() ? value : Nodes.array(value, "errors");
        if (list == null || list.isEmpty() || Nodes.text(list.get(0), "property") == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        walk(out, list, Pointers.ROOT, 0);
        return out.hasViolations() ? out.build() : Optional.empty();
    }

    private static void walk(Extracted.Builder out, JsonNode list, String parent, int depth) {
        for (JsonNode e : Nodes.items(list)) {
            if (out.full()) {
                return;
            }
            String property = Nodes.text(e, "property");
            if (property == null) {
                continue;
            }
            Optional<String> at = Pointers.append(parent, property);
            JsonNode constraints = Nodes.object(e, "constraints");
            if (constraints != null) {
                int seen = 0;
                for (var c : constraints.properties()) {
                    if (++seen > Nodes.MAX_ITEMS) {
                        break;
                    }
                    if (c.getValue().isString()) {
                        out.violation(at, c.getValue().stringValue());
                    }
                }
            }
            JsonNode children = Nodes.array(e, "children");
            if (children != null && at.isPresent() && depth < MAX_DEPTH) {
                walk(out, children, at.get(), depth + 1);
            }
        }
    }
}
