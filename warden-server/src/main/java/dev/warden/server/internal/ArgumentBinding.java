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

/**
 * Arguments, already valid against the schema generated from their type, bound to that type. The
 * schema refuses nearly everything first; what it admits and the type cannot hold (1e20 for an
 * {@code int}, which is an "integer", a date the string format let through, a record whose
 * constructor refuses the combination) is the caller's mistake too: VALIDATION_ERROR at its
 * pointer, never the value, never INTERNAL_ERROR. Only the binding is inside the catch, never the
 * tool's own code.
 */
final class ArgumentBinding {

    /** Trusted text: says what kind of mismatch, not which value. */
    static final String DOES_NOT_FIT = "does not fit the declared type";
    static final String OUT_OF_RANGE = "is out of range for the declared type";

    private ArgumentBinding() {
    }

    /**
     * Binds {@code value}, found at {@code at} in the arguments, to {@code type}. A {@link ToolFailure}
     * thrown by a record's constructor (a check across components) reaches the caller as thrown.
     */
    static Object bind(JsonNode value, Type type, List<Object> at, JsonSchemaValidator schema) {
        try {
            return Json.mapper().treeToValue(value, Json.mapper().getTypeFactory().constructType(type));
        } catch (JacksonException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof ToolFailure failure) {
                    throw failure;
                }
            }
            List<Object> path = new ArrayList<>(at);
            for (JacksonException.Reference reference : e.getPath()) {
                if (reference.getPropertyName() != null) {
                    path.add(reference.getPropertyName());
                } else if (reference.getIndex() >= 0) {
                    path.add(reference.getIndex());
                }
            }
            String why = e instanceof InputCoercionException ? OUT_OF_RANGE : DOES_NOT_FIT;
            throw new ValidationFailure(List.of(new Violation(schema.pointer(path), why)));
        }
    }
}
