package dev.warden.server.internal;

import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.MemberScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import dev.warden.core.json.Json;
import dev.warden.server.ToolParam;
import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Schemas generated from the records of typed tools (victools' generator, on Jackson 3):
 * 2020-12 without {@code $schema}, properties in declaration order, no properties the record does
 * not declare, Jakarta Validation constraints and descriptions ({@link ToolParam}, Jackson's
 * {@code @JsonPropertyDescription}) as keywords, nested types under {@code $defs}.
 */
public final class RecordSchemas {

    /**
     * One for the process. victools 5.0.0's generator is not thread-safe (a HashMap in its Jackson
     * module, a WeakHashMap in its type context; Spring AI #6207), so every generation holds
     * {@link #LOCK}: schemas are made at registration, never per call, so nobody waits for long.
     */
    private static final SchemaGenerator GENERATOR = generator();
    private static final Object LOCK = new Object();

    /** The constraints victools writes as keywords; any other would be silently left unchecked. */
    private static final Set<String> TRANSLATED = Set.of("NotNull", "NotEmpty", "NotBlank", "Size", "Min", "Max",
            "DecimalMin", "DecimalMax", "Positive", "PositiveOrZero", "Negative", "NegativeOrZero", "Pattern",
            "Email", "AssertTrue", "AssertFalse");

    private RecordSchemas() {
    }

    /** The schema of a record (or any type whose schema is an object). */
    public static ObjectNode of(Type type) {
        synchronized (LOCK) {
            return QuietStdout.during(() -> GENERATOR.generateSchema(type));
        }
    }

    /** One property of an object schema built from several types (a method's parameters). */
    public record Property(String name, Type type, Optional<String> description, boolean required) {
    }

    /** An object schema whose properties are the given types, sharing one {@code $defs}. */
    public static ObjectNode object(List<Property> properties) {
        synchronized (LOCK) {
            return QuietStdout.during(() -> objectSchema(properties));
        }
    }

    private static ObjectNode objectSchema(List<Property> properties) {
        SchemaBuilder builder = GENERATOR.buildMultipleSchemaDefinitions();
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        for (Property property : properties) {
            ObjectNode one = builder.createSchemaReference(present(property.type()));
            property.description().ifPresent(d -> one.put("description", d));
            props.set(property.name(), property.required() ? one : nullable(one));
        }
        List<String> required = properties.stream().filter(Property::required).map(Property::name).toList();
        if (!required.isEmpty()) {
            required.forEach(schema.putArray("required")::add);
        }
        schema.put("additionalProperties", false);
        ObjectNode defs = builder.collectDefinitions("$defs");
        if (!defs.isEmpty()) {
            schema.set("$defs", defs);
        }
        return schema;
    }

    /**
     * One rule for an argument that is not required, as for a record's component: it may be left
     * out or sent as {@code null}, and both reach the author as {@code Optional.empty()} or null.
     */
    private static ObjectNode nullable(ObjectNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isString() && !schema.has("enum") && !schema.has("const")) {
            ArrayNode types = Json.mapper().createArrayNode().add(type.stringValue()).add("null");
            schema.set("type", types);
            return schema;
        }
        ObjectNode either = Json.object();
        JsonNode description = schema.remove("description");
        if (description != null) {
            either.set("description", description);
        }
        either.putArray("anyOf").add(schema).add(Json.object().put("type", "null"));
        return either;
    }

    /**
     * Required unless optional by type, by a {@code Nullable} annotation or by {@link ToolParam}. A
     * primitive is always there (Jackson would make an absent one 0), so it cannot be optional.
     */
    public static boolean required(String name, Class<?> type, Annotation[] annotations) {
        boolean required = !isOptional(type);
        for (Annotation a : annotations) {
            if ((a instanceof ToolParam p && !p.required()) || a.annotationType().getSimpleName().equals("Nullable")) {
                required = false;
            }
        }
        if (!required && type.isPrimitive()) {
            throw new IllegalArgumentException("\"" + name + "\" is a " + type + ", always present: use a boxed "
                    + "type or an Optional for an argument the caller may leave out");
        }
        return required;
    }

    /**
     * The type of an argument that is there: an {@code Optional}'s content. The generator unwraps
     * Optional fields of a record, not a type given alone (a method's parameter).
     */
    private static Type present(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() == Optional.class) {
            return p.getActualTypeArguments()[0];
        }
        return type == OptionalInt.class ? Integer.class : type == OptionalLong.class ? Long.class
                : type == OptionalDouble.class ? Double.class : type;
    }

    static boolean isOptional(Class<?> type) {
        return type == Optional.class || type == OptionalInt.class || type == OptionalLong.class
                || type == OptionalDouble.class;
    }

    private static SchemaGenerator generator() {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12,
                OptionPreset.PLAIN_JSON)
                // The names Jackson binds: @JsonProperty renames (enums: WireTypes, from the mapper).
                .with(new JacksonSchemaModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED))
                .with(new JakartaValidationModule(JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS))
                // No property the record does not declare; a Map's values keep their own schema.
                .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES)
                .without(Option.SCHEMA_VERSION_INDICATOR);
        config.forTypesInGeneral().withCustomDefinitionProvider(WireTypes::definition);
        config.forFields()
                .withDescriptionResolver(RecordSchemas::description)
                .withIgnoreCheck(RecordSchemas::refuseUntranslatedConstraints)
                .withRequiredCheck(field -> required(field.getName(), field.getRawMember().getType(),
                        field.getRawMember().getAnnotations()))
                .withNullableCheck(field -> !required(field.getName(), field.getRawMember().getType(),
                        field.getRawMember().getAnnotations()));
        // No minimum/maximum for the range of int or long: they would fill every listing with
        // noise; 1e20 for an int passes "integer" and is refused by the binding, at its pointer.
        config.forTypesInGeneral().withPropertySorter(RecordSchemas.declarationOrder());
        return new SchemaGenerator(config.build());
    }

    /** Never ignores a field: refuses one whose constraint the schema would silently drop. */
    private static boolean refuseUntranslatedConstraints(FieldScope field) {
        for (Annotation a : field.getRawMember().getAnnotations()) {
            Class<? extends Annotation> type = a.annotationType();
            if (type.getPackageName().equals("jakarta.validation.constraints")
                    && !TRANSLATED.contains(type.getSimpleName())) {
                throw new IllegalArgumentException(field.getDeclaringType().getErasedType().getSimpleName() + "."
                        + field.getName() + " carries @" + type.getSimpleName() + ", which a JSON Schema cannot "
                        + "say, so no caller would be held to it: check it in the record's compact constructor "
                        + "(throw IllegalArgumentException or ToolFailure.invalid)");
            }
        }
        return false;
    }

    private static String description(FieldScope field) {
        ToolParam param = field.getAnnotationConsideringFieldAndGetter(ToolParam.class);
        if (param == null) {
            return null;
        }
        if (!param.name().isEmpty()) {
            throw new IllegalArgumentException("@ToolParam(name) on " + field.getDeclaringType().getErasedType()
                    .getName() + "." + field.getName() + ": a record component is renamed with @JsonProperty");
        }
        return param.description().isEmpty() ? null : param.description();
    }

    /** A record's components in the order declared; the generator's default is alphabetical. */
    private static Comparator<MemberScope<?, ?>> declarationOrder() {
        return Comparator.comparingInt(member -> {
            RecordComponent[] components = member.getDeclaringType().getErasedType().getRecordComponents();
            if (components == null) {
                return 0;
            }
            List<String> names = Arrays.stream(components).map(RecordComponent::getName).toList();
            return names.indexOf(member.getDeclaredName());
        });
    }
}
