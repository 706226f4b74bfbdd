package dev.warden.audit.internal;

import dev.warden.audit.canary.Canaries;
import dev.warden.audit.canary.Canary;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls that make a tool fail the way models make it fail, read from its input schema: each required
 * property missing, each property of the wrong type, numbers out of range, values outside an enum,
 * strings over their maximum length (or 64 KiB long), hostile values and deep nesting. Every string
 * the audit sends holds the marker. Bounded: only the first properties of a wide schema are probed,
 * and a tool's probes are made when asked for ({@link #forTool}), so a caller that asks tool by tool
 * as its budget allows holds one tool's probes at a time.
 */
public final class ProbeGenerator {

    public static final int LONG_STRING_CHARS = 64 * 1024;
    /** Properties probed per tool at most: a schema with hundreds costs no more than this. */
    private static final int MAX_PROPERTIES = 8;
    /** String properties given hostile values per tool at most. */
    private static final int MAX_HOSTILE_PROPERTIES = 3;
    /** Calls with the other values a schema or description lists for one property, per tool at most. */
    private static final int MAX_LISTED = 7;
    private static final int MAX_EXPLICIT_LENGTH = 1024 * 1024;

    private final String marker;
    /** The 64 KiB value, made once: every tool's probe holds this one instance, not a copy of its own. */
    private String longest;

    private final Canaries canaries;
    /** Whether URL canaries are planted: only where the listener can see the server's fetch. */
    private final boolean urlCanaries;

    public ProbeGenerator(String marker) {
        this(marker, token -> "http://127.0.0.1:0/" + token);
    }

    /** {@code urls}: the loopback URL whose request proves a URL canary's token was fetched. */
    public ProbeGenerator(String marker, Function<String, String> urls) {
        this(marker, urls, true);
    }

    /**
     * {@code urlCanaries}: whether the server runs on this machine (stdio, or HTTP on loopback), so
     * its fetch of a loopback URL reaches the audit's listener; a remote server's would not.
     */
    public ProbeGenerator(String marker, Function<String, String> urls, boolean urlCanaries) {
        this.marker = marker;
        this.canaries = new Canaries(marker, urls);
        this.urlCanaries = urlCanaries;
    }

    /** Every probe of one tool, the baseline (valid arguments) first. */
    public List<Probe> forTool(JsonNode tool) {
        String name = tool.path("name").asString("");
        JsonNode schema = tool.path("inputSchema");
        List<Probe> probes = new ArrayList<>();
        ObjectNode valid = valid(schema, tool.path("description").asString(""));
        probes.add(call(Probe.Kind.VALID, name, "valid arguments (the baseline)", valid));
        probes.addAll(listedValues(name, schema, tool.path("description").asString(""), valid));
        for (JsonNode required : schema.path("required")) {
            String property = required.asString("");
            if (valid.has(property)) {
                ObjectNode args = valid.deepCopy();
                args.remove(property);
                probes.add(call(Probe.Kind.BAD_ARGUMENTS, name, "required property '" + property + "' missing", args));
            }
        }
        int probed = 0;
        int hostile = 0;
        List<String> bases = Canaries.bases(tool);
        boolean longDone = false;
        for (Map.Entry<String, JsonNode> entry : schema.path("properties").properties()) {
            if (probed++ >= MAX_PROPERTIES) {
                break;
            }
            String property = entry.getKey();
            JsonNode p = entry.getValue();
            String type = type(p);
            probes.add(with(Probe.Kind.BAD_ARGUMENTS, name, valid, property, wrongType(type),
                    "property '" + property + "' of the wrong type"));
            if (p.has("minimum") && p.get("minimum").isNumber()) {
                probes.add(with(Probe.Kind.BAD_ARGUMENTS, name, valid, property,
                        Json.mapper().getNodeFactory().numberNode(p.get("minimum").decimalValue().subtract(java.math.BigDecimal.ONE)),
                        "property '" + property + "' below its minimum"));
            }
            if (p.has("maximum") && p.get("maximum").isNumber()) {
                probes.add(with(Probe.Kind.BAD_ARGUMENTS, name, valid, property,
                        Json.mapper().getNodeFactory().numberNode(p.get("maximum").decimalValue().add(java.math.BigDecimal.ONE)),
                        "property '" + property + "' above its maximum"));
            }
            if (p.path("enum").isArray() && !p.path("enum").isEmpty()) {
                probes.add(with(Probe.Kind.BAD_ARGUMENTS, name, valid, property, Json.tree(marker),
                        "property '" + property + "' outside its enum"));
            }
            if ("string".equals(type) && !p.has("enum")) {
                int max = p.path("maxLength").asInt(-1);
                if (max >= 0 && max < MAX_EXPLICIT_LENGTH) {
                    probes.add(with(Probe.Kind.LONG_STRING, name, valid, property, Json.tree(longString(max + 1)),
                            "property '" + property + "' over its maxLength"));
                } else if (!longDone) {
                    longDone = true;
                    probes.add(with(Probe.Kind.LONG_STRING, name, valid, property,
                            Json.tree(longest()), "property '" + property + "' 64 KiB long"));
                }
                if (hostile++ < MAX_HOSTILE_PROPERTIES) {
                    for (Hostile.Value value : Hostile.strings(marker, canaries, bases)) {
                        probes.add(with(Probe.Kind.HOSTILE, name, valid, property, Json.tree(value.text()),
                                "property '" + property + "' holding " + value.what(), value.canary()));
                    }
                    for (Canaries.Planted c : canaries.forProperty(bases, hostile == 1)) {
                        probes.add(with(Probe.Kind.CANARY, name, valid, property, Json.tree(c.text()),
                                "property '" + property + "' holding " + c.what(), Optional.of(c.canary())));
                    }
                }
                if (urlCanaries && Canaries.urlShaped(property, p)) {
                    Canaries.Planted url = canaries.url();
                    probes.add(with(Probe.Kind.CANARY, name, valid, property, Json.tree(url.text()),
                            "property '" + property + "' holding " + url.what(), Optional.of(url.canary())));
                }
            }
        }
        Optional<String> first = schema.path("properties").propertyNames().stream().findFirst();
        first.ifPresent(property -> probes.add(with(Probe.Kind.HOSTILE, name, valid, property, deepNesting(),
                "property '" + property + "' nested " + Hostile.NESTING_DEPTH + " deep")));
        return probes;
    }

    /**
     * The baseline again with each other value listed for its first required property that lists
     * several (at most {@value #MAX_LISTED} calls): the poisoned document was the second of
     * three "Available IDs", never read by a baseline that takes the first.
     */
    private List<Probe> listedValues(String name, JsonNode schema, String toolDescription, ObjectNode valid) {
        boolean only = schema.path("required").size() == 1;
        for (JsonNode required : schema.path("required")) {
            String property = required.asString("");
            List<JsonNode> values = BaselineValues.all(schema.path("properties").path(property), property,
                    toolDescription, only);
            if (values.size() > 1) {
                List<Probe> probes = new ArrayList<>();
                for (int i = 1; i < values.size() && i <= MAX_LISTED; i++) {
                    probes.add(with(Probe.Kind.LISTED_VALUE, name, valid, property, values.get(i),
                            "valid arguments, value " + (i + 1) + " of " + values.size() + " listed for '" + property + "'"));
                }
                return probes;
            }
        }
        return List.of();
    }

    /** Arguments that satisfy {@code schema} as far as a generator can tell: required properties only. */
    public ObjectNode valid(JsonNode schema) {
        return valid(schema, "");
    }

    /** As {@link #valid(JsonNode)}, with values the tool's description lists ({@link BaselineValues}). */
    private ObjectNode valid(JsonNode schema, String toolDescription) {
        ObjectNode args = Json.object();
        JsonNode properties = schema.path("properties");
        boolean only = schema.path("required").size() == 1;
        for (JsonNode required : schema.path("required")) {
            String property = required.asString("");
            JsonNode p = properties.path(property);
            args.set(property, BaselineValues.of(p, property, toolDescription, only).orElseGet(() -> value(p, 0)));
        }
        return args;
    }

    /** Valid arguments, but every number as large as allowed (a sleep tool's duration): the call to cancel. */
    public ObjectNode slow(JsonNode schema) {
        ObjectNode args = valid(schema);
        for (Map.Entry<String, JsonNode> entry : schema.path("properties").properties()) {
            String type = type(entry.getValue());
            if ("integer".equals(type) || "number".equals(type)) {
                JsonNode max = entry.getValue().path("maximum");
                args.put(entry.getKey(), max.isNumber() ? Math.min(max.asLong(), 600) : 60);
            }
        }
        return args;
    }

    public List<Probe> unknowns(boolean resources, boolean prompts) {
        List<Probe> probes = new ArrayList<>();
        ObjectNode call = Json.object();
        call.put("name", marker + "-no-such-tool");
        call.putObject("arguments");
        probes.add(new Probe(Probe.Kind.UNKNOWN_TOOL, "tools/call", Optional.empty(), "a tool that does not exist", call));
        if (resources) {
            ObjectNode read = Json.object();
            read.put("uri", "file:///" + marker + "/no-such-resource");
            probes.add(new Probe(Probe.Kind.UNKNOWN_RESOURCE, "resources/read", Optional.empty(),
                    "a resource that does not exist", read));
        }
        if (prompts) {
            ObjectNode get = Json.object();
            get.put("name", marker + "-no-such-prompt");
            probes.add(new Probe(Probe.Kind.UNKNOWN_PROMPT, "prompts/get", Optional.empty(),
                    "a prompt that does not exist", get));
        }
        return probes;
    }

    public Probe call(Probe.Kind kind, String tool, String description, ObjectNode arguments) {
        ObjectNode params = Json.object();
        params.put("name", tool);
        params.set("arguments", arguments);
        return new Probe(kind, "tools/call", Optional.of(tool), description, params);
    }

    private Probe with(Probe.Kind kind, String tool, ObjectNode valid, String property, JsonNode value,
                       String description) {
        return with(kind, tool, valid, property, value, description, Optional.empty());
    }

    private Probe with(Probe.Kind kind, String tool, ObjectNode valid, String property, JsonNode value,
                       String description, Optional<Canary> canary) {
        ObjectNode args = valid.deepCopy();
        args.set(property, value);
        ObjectNode params = Json.object();
        params.put("name", tool);
        params.set("arguments", args);
        return new Probe(kind, "tools/call", Optional.of(tool), description, params, canary);
    }

    private JsonNode value(JsonNode schema, int depth) {
        Optional<JsonNode> given = BaselineValues.of(schema, "", "", false);
        if (given.isPresent()) {
            return given.get();
        }
        return switch (type(schema)) {
            case "integer", "number" -> {
                JsonNode min = schema.path("minimum");
                JsonNode exclusive = schema.path("exclusiveMinimum");
                long n = min.isNumber() ? (long) Math.ceil(min.asDouble()) : exclusive.isNumber()
                        ? (long) Math.floor(exclusive.asDouble()) + 1 : 1;
                yield Json.tree(n);
            }
            case "boolean" -> Json.tree(false);
            case "null" -> Json.mapper().getNodeFactory().nullNode();
            case "array" -> {
                ArrayNode array = Json.mapper().createArrayNode();
                int min = Math.min(schema.path("minItems").asInt(0), 3);
                for (int i = 0; i < min && depth < 8; i++) {
                    array.add(value(schema.path("items"), depth + 1));
                }
                yield array;
            }
            case "object" -> depth < 8 ? valid(schema) : Json.object();
            default -> Json.tree(string(schema));
        };
    }

    private String string(JsonNode schema) {
        String format = schema.path("format").asString("");
        String text = switch (format) {
            case "email" -> marker + "@example.invalid";
            case "uri", "url" -> "https://example.invalid/" + marker;
            case "date-time" -> "2026-01-01T00:00:00Z";
            case "date" -> "2026-01-01";
            default -> marker;
        };
        int min = schema.path("minLength").asInt(0);
        return text.length() >= min ? text : text + "x".repeat(Math.min(min, 4096) - text.length());
    }

    private JsonNode wrongType(String type) {
        return switch (type) {
            case "string" -> Json.tree(12345);
            case "array", "object", "integer", "number", "boolean" -> Json.tree(marker);
            default -> Json.mapper().createArrayNode().add(marker);
        };
    }

    private String longest() {
        if (longest == null) {
            longest = longString(LONG_STRING_CHARS);
        }
        return longest;
    }

    private String longString(int length) {
        StringBuilder sb = new StringBuilder(length).append(marker);
        while (sb.length() < length) {
            sb.append('A');
        }
        sb.setLength(length);
        return sb.toString();
    }

    private JsonNode deepNesting() {
        JsonNode inner = Json.tree(marker);
        for (int i = 0; i < Hostile.NESTING_DEPTH; i++) {
            ObjectNode wrap = Json.object();
            wrap.set("a", inner);
            inner = wrap;
        }
        return inner;
    }

    /** The schema's type: the first non-null one of a list; {@code string} when none is given. */
    public static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!"null".equals(t.asString(""))) {
                    return t.asString("");
                }
            }
        }
        return type.isString() ? type.asString() : schema.has("properties") ? "object" : "string";
    }
}
