package dev.warden.core.headers;

import dev.warden.core.error.ConfigurationException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * A tool's {@code x-mcp-header} annotations (2026-07-28, Streamable HTTP): tool parameters the
 * client mirrors into {@code Mcp-Param-{Name}} headers and the server checks against the body.
 * {@link #of} enforces the spec's constraints on a definition; {@link #headers} is the client's
 * side, {@link #mismatch} the server's. Values that are not plain visible ASCII travel as
 * {@code =?base64?…?=} ({@link #encode}), the same rule as {@code Mcp-Name}.
 */
public record ParamHeaders(List<Param> params) {

    public static final String PREFIX = "Mcp-Param-";
    public static final String KEYWORD = "x-mcp-header";
    /** JavaScript's safe integer range, which the spec bounds integer header values to. */
    static final long MAX_SAFE = (1L << 53) - 1;

    /** An annotated parameter: its path of {@code properties} keys, header name and type. */
    public record Param(List<String> path, String name, String type) {
        public Param {
            path = List.copyOf(path);
        }

        public String header() {
            return PREFIX + name;
        }
    }

    /** A definition the spec says clients must reject; the message says which rule it breaks. */
    public static final class InvalidException extends ConfigurationException {
        InvalidException(String message) {
            super(message);
        }
    }

    public static final ParamHeaders NONE = new ParamHeaders(List.of());

    public ParamHeaders {
        params = List.copyOf(params);
    }

    public boolean isEmpty() {
        return params.isEmpty();
    }

    /**
     * The annotations of an input schema.
     *
     * @throws InvalidException when an annotation is empty, not an HTTP token, repeated (ignoring
     *     case), on a type other than string, integer or boolean, or not reachable from the root
     *     through {@code properties} alone
     */
    public static ParamHeaders of(JsonNode inputSchema) {
        List<Param> found = new ArrayList<>();
        walk(inputSchema, List.of(), true, found, 0);
        Set<String> seen = new HashSet<>();
        for (Param p : found) {
            if (!seen.add(p.name().toLowerCase(Locale.ROOT))) {
                throw new InvalidException("x-mcp-header names must be unique ignoring case");
            }
        }
        return found.isEmpty() ? NONE : new ParamHeaders(found);
    }

    /**
     * Visits every schema node; {@code reachable} says whether the path from the root went through
     * {@code properties} keys only (the root itself is not a parameter).
     */
    private static void walk(JsonNode node, List<String> path, boolean reachable, List<Param> found, int depth) {
        if (depth > 64) {
            throw new InvalidException("the input schema nests too deeply to check its x-mcp-header annotations");
        }
        if (node.isArray()) {
            for (JsonNode item : node) {
                walk(item, path, false, found, depth + 1);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if (node.has(KEYWORD)) {
            if (!reachable || path.isEmpty()) {
                throw new InvalidException("x-mcp-header is allowed only on properties reached through properties");
            }
            JsonNode value = node.get(KEYWORD);
            String name = value.isString() ? value.stringValue() : "";
            if (name.isEmpty()) {
                throw new InvalidException("x-mcp-header must not be empty");
            }
            if (!isToken(name)) {
                throw new InvalidException("x-mcp-header must be an HTTP token (no spaces, colons, controls or non-ASCII)");
            }
            String type = node.path("type").isString() ? node.path("type").stringValue() : "";
            if (!type.equals("string") && !type.equals("integer") && !type.equals("boolean")) {
                throw new InvalidException("x-mcp-header is allowed only on string, integer or boolean parameters");
            }
            found.add(new Param(path, name, type));
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (field.getKey().equals("properties") && field.getValue().isObject()) {
                for (Map.Entry<String, JsonNode> property : field.getValue().properties()) {
                    List<String> next = new ArrayList<>(path);
                    next.add(property.getKey());
                    walk(property.getValue(), next, reachable, found, depth + 1);
                }
            } else if ((field.getValue().isObject() || field.getValue().isArray())) {
                walk(field.getValue(), path, false, found, depth + 1);
            }
        }
    }

    /** RFC 9110 {@code 1*tchar}. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (!alnum && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The client's headers for these arguments: one per annotated parameter that has a non-null value. */
    public Map<String, String> headers(JsonNode arguments) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Param p : params) {
            valueAt(arguments, p.path()).flatMap(v -> text(v, p.type()))
                    .ifPresent(text -> out.put(p.header(), encode(text)));
        }
        return out;
    }

    /**
     * The server's check: every annotated parameter with a value in the body has its header, and
     * the header (decoded) equals the value; a header for a parameter without a value is a
     * mismatch too. Integers compare numerically. Returns the header name that fails, if any.
     */
    public Optional<String> mismatch(Function<String, Optional<String>> header, JsonNode arguments) {
        for (Param p : params) {
            Optional<JsonNode> value = valueAt(arguments, p.path());
            Optional<String> sent = header.apply(p.header());
            if (value.isEmpty()) {
                if (sent.isPresent()) {
                    return Optional.of(p.header());
                }
                continue;
            }
            Optional<String> decoded = sent.flatMap(ParamHeaders::decode);
            if (decoded.isEmpty() || !matches(decoded.get(), value.get(), p.type())) {
                return Optional.of(p.header());
            }
        }
        return Optional.empty();
    }

    private static boolean matches(String header, JsonNode value, String type) {
        if (type.equals("integer") && value.isNumber()) {
            try {
                return new java.math.BigDecimal(header.trim()).compareTo(value.decimalValue()) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return text(value, type).filter(header::equals).isPresent();
    }

    private static Optional<JsonNode> valueAt(JsonNode arguments, List<String> path) {
        JsonNode node = arguments;
        for (String key : path) {
            if (node == null || !node.isObject()) {
                return Optional.empty();
            }
            node = node.get(key);
        }
        return node == null || node.isNull() || node.isMissingNode() ? Optional.empty() : Optional.of(node);
    }

    /** The spec's string form of a value: strings as they are, integers in decimal, booleans in lower case. */
    private static Optional<String> text(JsonNode value, String type) {
        return switch (type) {
            case "string" -> value.isString() ? Optional.of(value.stringValue()) : Optional.empty();
            case "integer" -> value.isIntegralNumber() || value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0
                    ? Optional.of(value.decimalValue().toBigInteger().toString()) : Optional.empty();
            case "boolean" -> value.isBoolean() ? Optional.of(Boolean.toString(value.booleanValue())) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /**
     * A header value for {@code value}: as it is when it is visible ASCII and spaces with no space
     * at either end and not shaped like the encoded form; else {@code =?base64?…?=} of its UTF-8.
     */
    public static String encode(String value) {
        boolean plain = !value.startsWith(" ") && !value.endsWith(" ")
                && !(value.startsWith("=?base64?") && value.endsWith("?="));
        for (int i = 0; i < value.length() && plain; i++) {
            char c = value.charAt(i);
            plain = c >= 0x20 && c < 0x7F;
        }
        return plain ? value : "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
                + "?=";
    }

    /**
     * A header value as sent, or decoded from the encoded form; empty when it carries characters
     * a header may not (controls, non-ASCII) or its Base64 is malformed (bad alphabet or padding).
     */
    public static Optional<String> decode(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '\t' && (c < 0x20 || c >= 0x7F)) {
                return Optional.empty();
            }
        }
        if (value.startsWith("=?base64?") && value.endsWith("?=") && value.length() >= 11) {
            String data = value.substring(9, value.length() - 2);
            if (data.length() % 4 != 0) {
                return Optional.empty(); // the decoder would accept missing padding; the spec does not
            }
            try {
                return Optional.of(new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.of(value);
    }
}
