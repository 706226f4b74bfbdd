package dev.warden.schema;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.BasicDialectRegistry;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.NodePath;
import dev.warden.core.error.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates JSON values against a JSON Schema (2020-12 unless the schema names another dialect)
 * and reports violations as trusted text: a JSON pointer and a message built from the schema.
 *
 * <p>Pointers are built from the instance location, but a segment that the schema does not declare
 * as a property name (a key the caller invented) is shown as {@code *}, so no caller text appears.
 * Remote {@code $ref}s are never fetched; {@code pattern} runs on RE2/J; {@code format} is asserted,
 * after a length bound per format ({@link BoundedFormat}).
 */
public final class JsonSchemaValidator {

    /** Enough to correct a call; a hostile input with thousands of errors gets a bounded answer. */
    public static final int MAX_VIOLATIONS = 20;

    private static final SchemaRegistry REGISTRY = SchemaRegistry.builder()
            .defaultDialectId(Dialects.getDraft202012().getId())
            // Every dialect a schema may name, each with length-bounded format checks.
            .dialectRegistry(new BasicDialectRegistry(List.of(Dialects.getDraft4(), Dialects.getDraft6(),
                    Dialects.getDraft7(), Dialects.getDraft201909(), Dialects.getDraft202012()).stream()
                    .map(BoundedFormat::apply).toList()))
            .schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .regularExpressionFactory(Re2jRegularExpressionFactory.INSTANCE)
                    .formatAssertionsEnabled(true)
                    .build())
            .schemaLoader(loader -> loader.fetchRemoteResources(false))
            .build();

    private final Schema schema;
    private final Set<String> declaredNames;

    private JsonSchemaValidator(Schema schema, Set<String> declaredNames) {
        this.schema = schema;
        this.declaredNames = declaredNames;
    }

    /**
     * Compiles a schema once, at registration.
     *
     * @throws IllegalArgumentException if the schema cannot be compiled, with the reason
     */
    public static JsonSchemaValidator compile(ObjectNode schemaNode) {
        Objects.requireNonNull(schemaNode, "schema");
        try {
            Schema schema = REGISTRY.getSchema(schemaNode.deepCopy());
            schema.initializeValidators();
            Set<String> names = new HashSet<>();
            collectDeclaredNames(schemaNode, names);
            return new JsonSchemaValidator(schema, Set.copyOf(names));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid JSON Schema: " + e.getMessage(), e);
        }
    }

    public List<Violation> validate(JsonNode instance) {
        List<Error> errors = schema.validate(instance);
        Set<Violation> violations = new LinkedHashSet<>();
        for (Error error : errors) {
            if (violations.size() == MAX_VIOLATIONS) {
                break;
            }
            violations.add(toViolation(error));
        }
        return new ArrayList<>(violations);
    }

    private Violation toViolation(Error error) {
        List<Object> segments = new ArrayList<>();
        NodePath location = error.getInstanceLocation();
        for (int i = 0; location != null && i < location.getNameCount(); i++) {
            segments.add(location.getElement(i));
        }
        if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
            segments.add(error.getProperty());
        }
        return new Violation(pointer(segments), ViolationMessages.of(error));
    }

    /**
     * A pointer to a location in an instance of this schema, from its segments (names and array
     * indexes), masked as violations' pointers are: for a failure found after validation, such as
     * a value the schema admits but a typed binding cannot hold.
     */
    public String pointer(List<?> segments) {
        StringBuilder pointer = new StringBuilder();
        for (Object segment : segments) {
            pointer.append('/');
            if (segment instanceof Integer index) {
                pointer.append(index);
            } else {
                appendSegment(pointer, String.valueOf(segment));
            }
        }
        return pointer.toString();
    }

    private void appendSegment(StringBuilder pointer, String segment) {
        if (!declaredNames.contains(segment)) {
            pointer.append('*');
            return;
        }
        pointer.append(segment.replace("~", "~0").replace("/", "~1"));
    }

    private static void collectDeclaredNames(JsonNode node, Set<String> names) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            JsonNode properties = node.get("properties");
            if (properties != null && properties.isObject()) {
                properties.propertyNames().forEach(names::add);
            }
            JsonNode required = node.get("required");
            if (required != null && required.isArray()) {
                required.forEach(r -> {
                    if (r.isString()) {
                        names.add(r.stringValue());
                    }
                });
            }
            node.values().forEach(child -> collectDeclaredNames(child, names));
        } else if (node.isArray()) {
            node.forEach(child -> collectDeclaredNames(child, names));
        }
    }
}
