package dev.warden.schema;

import com.networknt.schema.Error;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Builds the message of one violation from the keyword and the schema alone. The library's own
 * messages are not used: some of them quote the offending value or an unknown property name,
 * which is the caller's input and must not be echoed back.
 */
final class ViolationMessages {

    private static final int MAX_LISTED = 12;

    private static final Map<String, String> FORMATS = Map.ofEntries(
            Map.entry("email", "an email address"),
            Map.entry("idn-email", "an email address"),
            Map.entry("date-time", "an RFC 3339 date-time"),
            Map.entry("date", "an RFC 3339 full-date (YYYY-MM-DD)"),
            Map.entry("time", "an RFC 3339 time"),
            Map.entry("duration", "an ISO 8601 duration"),
            Map.entry("uri", "an absolute URI"),
            Map.entry("uri-reference", "a URI reference"),
            Map.entry("iri", "an IRI"),
            Map.entry("uuid", "a UUID"),
            Map.entry("ipv4", "an IPv4 address"),
            Map.entry("ipv6", "an IPv6 address"),
            Map.entry("hostname", "a host name"),
            Map.entry("idn-hostname", "a host name"),
            Map.entry("regex", "a regular expression"),
            Map.entry("json-pointer", "a JSON pointer"));

    private ViolationMessages() {
    }

    static String of(Error error) {
        JsonNode schema = error.getSchemaNode();
        String keyword = error.getKeyword() == null ? "" : error.getKeyword();
        return switch (keyword) {
            case "type" -> "must be " + typeList(schema);
            case "required" -> "is required";
            case "enum" -> "must be one of: " + list(schema);
            case "const" -> schema != null && schema.isValueNode() && schema.toString().length() <= 64
                    ? "must be " + schema : "must equal the value the schema defines";
            case "format" -> "must be " + (schema != null && schema.isString()
                    ? FORMATS.getOrDefault(schema.stringValue(), "in the format " + quote(schema.stringValue()))
                    : "in the format the schema defines");
            case "minLength" -> "must be at least " + count(schema, "character") + " long";
            case "maxLength" -> "must be at most " + count(schema, "character") + " long";
            case "minimum" -> "must be greater than or equal to " + number(schema);
            case "maximum" -> "must be less than or equal to " + number(schema);
            case "exclusiveMinimum" -> "must be greater than " + number(schema);
            case "exclusiveMaximum" -> "must be less than " + number(schema);
            case "multipleOf" -> "must be a multiple of " + number(schema);
            case "pattern" -> schema != null && schema.isString() && schema.stringValue().length() <= 120
                    ? "must match the pattern " + quote(schema.stringValue())
                    : "must match the pattern the schema defines";
            case "minItems" -> "must have at least " + count(schema, "item");
            case "maxItems" -> "must have at most " + count(schema, "item");
            case "uniqueItems" -> "must not contain duplicate items";
            case "minProperties" -> "must have at least " + count(schema, "property");
            case "maxProperties" -> "must have at most " + count(schema, "property");
            case "additionalProperties", "unevaluatedProperties" -> "must not have properties the schema does not define";
            case "additionalItems", "unevaluatedItems", "items" -> "must not have items the schema does not define";
            case "propertyNames" -> "has a property name the schema does not allow";
            case "contains", "minContains", "maxContains" -> "must contain items that match the schema";
            case "dependentRequired", "dependencies" -> "is missing a property that another property requires";
            case "oneOf" -> "must match exactly one of the allowed shapes";
            case "anyOf" -> "must match at least one of the allowed shapes";
            case "not" -> "must not match the excluded shape";
            case "false" -> "is not allowed";
            default -> "does not match the schema";
        };
    }

    private static String typeList(JsonNode schema) {
        if (schema == null) {
            return "of the type the schema defines";
        }
        List<String> types = new ArrayList<>();
        if (schema.isString()) {
            types.add(schema.stringValue());
        } else if (schema.isArray()) {
            schema.forEach(t -> types.add(t.asString()));
        }
        if (types.isEmpty()) {
            return "of the type the schema defines";
        }
        List<String> named = types.stream().map(ViolationMessages::article).toList();
        return String.join(" or ", named);
    }

    private static String article(String type) {
        return switch (type) {
            case "object" -> "an object";
            case "array" -> "an array";
            case "integer" -> "an integer";
            case "null" -> "null";
            default -> "a " + type.toLowerCase(Locale.ROOT);
        };
    }

    private static String list(JsonNode schema) {
        if (schema == null || !schema.isArray()) {
            return "the values the schema defines";
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : schema) {
            if (values.size() == MAX_LISTED) {
                values.add("...");
                break;
            }
            values.add(value.toString());
        }
        return String.join(", ", values);
    }

    private static String number(JsonNode schema) {
        return schema != null && schema.isNumber() ? schema.asString() : "the schema's limit";
    }

    private static String count(JsonNode schema, String noun) {
        if (schema == null || !schema.isIntegralNumber()) {
            return "the number of " + noun + "s the schema allows";
        }
        boolean one = schema.asLong() == 1;
        String plural = noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s";
        return schema.asString() + " " + (one ? noun : plural);
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }
}
