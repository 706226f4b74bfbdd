package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * JSON Schema validator output, as the common validators emit it, at the root or under {@code errors}:
 * <ul>
 *   <li>ajv: {@code [{"instancePath": "/email", "message": …, "keyword": "required", "params":
 *       {"missingProperty": "name"}}]} (ajv 6's {@code dataPath} {@code .email} too);</li>
 *   <li>Python jsonschema's {@code ValidationError} attributes: {@code message} with {@code path} /
 *       {@code absolute_path} (arrays) or {@code json_path} ({@code $.email}); for {@code required} the
 *       missing name is the quoted one in the message;</li>
 *   <li>networknt: {@code instanceLocation} ({@code /email} in 3.x, {@code $.email} before) with
 *       {@code message} and {@code property} for {@code required}; its JSON Schema "list"/"basic" output
 *       ({@code {"valid": false, "details" | "errors": [{"instanceLocation": …, "errors": {kw: msg}} |
 *       {"instanceLocation": …, "error": msg}]}}); and its {@code Error.toString()} lines
 *       ({@code "/email: does not match …"}).</li>
 * </ul>
 */
final class JsonSchemaShape implements ErrorShape {

    @Override
    public String name() {
        return "json-schema";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode list = value;
        if (value != null && value.isObject()) {
            list = Nodes.array(value, "errors");
            if (list == null) {
                list = Nodes.array(value, "details");
            }
        }
        if (list == null || !list.isArray() || list.isEmpty()) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        for (JsonNode e : Nodes.items(list)) {
            if (out.full()) {
                break;
            }
            if (e.isString()) {
                line(out, e.stringValue());
            } else if (e.isObject()) {
                item(out, e);
            }
        }
        return out.hasViolations() ? out.build() : Optional.empty();
    }

    private static void item(Extracted.Builder out, JsonNode e) {
        if (!isValidatorError(e)) {
            return; // a {"path", "message"} item is Zod's, Joi's or GraphQL's, read by their shapes
        }
        Optional<String> at = location(e);
        String keyword = Nodes.firstText(e, "keyword", "validator");
        JsonNode errors = Nodes.object(e, "errors");
        if (errors != null) { // list/hierarchical output: {keyword: message}
            for (var entry : errors.properties()) {
                if (entry.getValue().isString()) {
                    out.violation(requiredAt(at, entry.getKey(), null, entry.getValue().stringValue()),
                            entry.getValue().stringValue());
                }
            }
            return;
        }
        String message = Nodes.firstText(e, "message", "error");
        if (message == null) {
            return;
        }
        JsonNode params = Nodes.object(e, "params");
        String missing = Nodes.text(params, "missingProperty");
        if (missing == null) {
            missing = Nodes.text(e, "property");
        }
        out.violation(requiredAt(at, keyword, missing, message), message);
    }

    /** A location member only validators use, or Python jsonschema's {@code path} beside its {@code validator}. */
    private static boolean isValidatorError(JsonNode e) {
        return Nodes.member(e, "instancePath") != null || Nodes.member(e, "instanceLocation") != null
                || Nodes.member(e, "dataPath") != null || Nodes.member(e, "absolute_path") != null
                || Nodes.member(e, "json_path") != null
                || Nodes.array(e, "path") != null && Nodes.text(e, "validator") != null;
    }

    /** For a {@code required} error, the pointer of the missing member rather than of its parent. */
    private static Optional<String> requiredAt(Optional<String> at, String keyword, String missing, String message) {
        if (at.isEmpty() || !"required".equals(keyword)) {
            return at;
        }
        String name = missing != null ? missing : Nodes.quoted(message);
        if (name == null) {
            return at;
        }
        Optional<String> child = Pointers.append(at.get(), name);
        return child.isPresent() ? child : at;
    }

    private static Optional<String> location(JsonNode e) {
        String instance = Nodes.firstText(e, "instancePath", "instanceLocation", "json_path");
        if (instance != null) {
            return Pointers.fromLocation(instance);
        }
        JsonNode raw = Nodes.member(e, "instancePath");
        if (raw == null) {
            raw = Nodes.member(e, "instanceLocation");
        }
        if (raw != null && raw.isString()) { // "" is the root
            return Pointers.fromLocation(raw.stringValue());
        }
        String dataPath = Nodes.text(e, "dataPath");
        if (dataPath != null) {
            return Pointers.fromDotted(dataPath.startsWith(".") ? dataPath.substring(1) : dataPath);
        }
        JsonNode path = Nodes.member(e, "absolute_path");
        if (path == null) {
            path = Nodes.member(e, "path");
        }
        return path != null && path.isArray() ? Pointers.fromSegments(path) : Optional.empty();
    }

    /** networknt's {@code Error.toString()}: {@code "<location>: <message>"}, location a pointer or {@code $…}. */
    private static void line(Extracted.Builder out, String line) {
        int sep = line.indexOf(": ");
        if (sep < 0 || sep > Pointers.MAX_LENGTH) {
            return;
        }
        String location = line.substring(0, sep);
        if (!location.isEmpty() && location.charAt(0) != '/' && location.charAt(0) != '$') {
            return;
        }
        String message = line.substring(sep + 2);
        Optional<String> at = Pointers.fromLocation(location);
        if (at.isPresent() && message.startsWith("required property '")) {
            at = requiredAt(at, "required", null, message);
        }
        out.violation(at, message);
    }
}
