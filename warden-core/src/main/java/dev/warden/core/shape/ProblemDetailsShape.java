package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * RFC 9457 (and 7807) problem details: {@code type}, {@code title}, {@code status}, {@code detail}, with
 * the per-field extensions in use: RFC 7807's {@code invalid-params} ({@code name}, {@code reason}),
 * RFC 9457's {@code errors} ({@code detail}, {@code pointer} as {@code #/age}), Zalando's
 * {@code violations} ({@code field}, {@code message}), Spring's {@code errors} ({@code field},
 * {@code defaultMessage}) and FastAPI-style {@code errors} ({@code loc}, {@code msg}).
 */
final class ProblemDetailsShape implements ErrorShape {

    private static final String[] LISTS = {"invalid-params", "invalid_params", "invalidParams", "errors",
        "violations", "fieldErrors"};

    @Override
    public String name() {
        return "problem-details";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        if (value == null || !value.isObject()) {
            return Optional.empty();
        }
        String type = Nodes.text(value, "type");
        String title = Nodes.text(value, "title");
        JsonNode status = Nodes.member(value, "status");
        String detail = Nodes.text(value, "detail");
        // "type" or "title" is what marks a problem; a bare {"detail": …} is FastAPI's, read elsewhere.
        if (type == null && title == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        out.code(Nodes.codeOfStatus(status));
        for (String list : LISTS) {
            for (JsonNode p : Nodes.items(Nodes.array(value, list))) {
                if (out.full()) {
                    break;
                }
                String message = Nodes.firstText(p, "reason", "detail", "message", "defaultMessage", "msg");
                out.violation(where(p), message);
            }
        }
        out.message(detail != null ? detail : title);
        out.retryAfter(RetryHints.of(value));
        return out.build();
    }

    static Optional<String> where(JsonNode p) {
        String pointer = Nodes.text(p, "pointer");
        if (pointer != null) {
            return Pointers.fromLocation(pointer);
        }
        JsonNode loc = Nodes.member(p, "loc");
        if (loc == null) {
            loc = Nodes.member(p, "path");
        }
        if (loc != null && loc.isArray()) {
            return Pointers.fromSegments(loc);
        }
        if (loc != null && loc.isString()) {
            return loc.stringValue().startsWith("/") || loc.stringValue().startsWith("$")
                    ? Pointers.fromLocation(loc.stringValue()) : Pointers.fromDotted(loc.stringValue());
        }
        String name = Nodes.firstText(p, "name", "field", "property", "propertyPath", "param");
        return name == null ? Optional.empty() : Pointers.fromDotted(name);
    }
}
