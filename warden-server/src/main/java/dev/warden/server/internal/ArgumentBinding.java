package dev.warden.server.internal;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import dev.warden.core.json.Json;
import dev.warden.schema.JsonSchemaValidator;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.InvalidDefinitionException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Arguments, already valid against the schema generated from their type, bound to that type. What
 * the schema admits and the type cannot hold (1e20 for an {@code int}, a date the string format
 * let through) is the caller's mistake: VALIDATION_ERROR at its pointer, never the value. So is an
 * {@link IllegalArgumentException} from a record's constructor (a check across components), and a
 * {@link ToolFailure} it throws reaches the caller as thrown, its pointers below the record's own.
 * Anything else is the server's failure, kept whole for the incident: a type Jackson cannot build
 * ({@link InvalidDefinitionException}) or a bug in a constructor (a NullPointerException, say).
 * Only the binding is inside the catch, never the tool's own code.
 */
final class ArgumentBinding {

    /** Trusted text: says what kind of mismatch, not which value. */
    static final String DOES_NOT_FIT = "does not fit the declared type";
    static final String OUT_OF_RANGE = "is out of range for the declared type";

    private ArgumentBinding() {
    }

    /** Binds {@code value}, found at {@code at} in the arguments, to {@code type}. */
    static Object bind(JsonNode value, Type type, List<Object> at, JsonSchemaValidator schema) {
        try {
            return Json.mapper().treeToValue(value, Json.mapper().getTypeFactory().constructType(type));
        } catch (InvalidDefinitionException e) {
            throw new IllegalStateException("Jackson cannot build " + type.getTypeName() + " (the tool's declared "
                    + "type): " + e.getOriginalMessage(), e);
        } catch (ValueInstantiationException e) {
            String pointer = schema.pointer(path(at, e));
            Throwable cause = e.getCause();
            if (cause instanceof ValidationFailure failure) {
                throw below(pointer, failure);
            }
            if (cause instanceof ToolFailure failure) {
                throw failure;
            }
            if (cause instanceof IllegalArgumentException) {
                throw new ValidationFailure(List.of(new Violation(pointer, DOES_NOT_FIT)));
            }
            throw new IllegalStateException("the constructor of " + e.getType().getRawClass().getName() + " failed", cause);
        } catch (JacksonException e) {
            // A ToolFailure from the author's own deserializer, say: theirs to say, as thrown.
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof ToolFailure failure) {
                    throw failure;
                }
            }
            String why = e instanceof InputCoercionException ? OUT_OF_RANGE : DOES_NOT_FIT;
            throw new ValidationFailure(List.of(new Violation(schema.pointer(path(at, e)), why)));
        }
    }

    /** Where the failing value is: {@code at}, then the properties and indexes Jackson was reading. */
    private static List<Object> path(List<Object> at, JacksonException e) {
        List<Object> path = new ArrayList<>(at);
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.add(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.add(reference.getIndex());
            }
        }
        return path;
    }

    /**
     * A nested record's pointers are its own ({@code /to}); the caller needs them from the root
     * ({@code /window/to}). Jackson's path ends at the property holding the record.
     */
    private static ValidationFailure below(String pointer, ValidationFailure failure) {
        if (pointer.isEmpty()) {
            return failure;
        }
        return new ValidationFailure(failure.violations().stream()
                .map(v -> new Violation(pointer + v.pointer(), v.message())).toList());
    }
}
