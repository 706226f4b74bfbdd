package dev.warden.server;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one argument of a typed tool: a component of its argument record, or a parameter of a
 * {@link Tool} method. The description goes into the generated input schema, where the model reads it.
 *
 * <p>An argument is required unless it is an {@code Optional}, carries an annotation named
 * {@code Nullable} (any package), or says {@code required = false}; one that is not required may
 * also be sent as {@code null}. Constraints (Jakarta Validation's {@code @Size}, {@code @Pattern},
 * {@code @Min}...) belong on record components, where they become schema keywords; one a schema
 * cannot say ({@code @Future}, {@code @Digits}...) is refused at registration.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface ToolParam {

    /**
     * The argument's name, for a method parameter when the class was compiled without
     * {@code -parameters}. A record component keeps its own name (rename it with Jackson's
     * {@code @JsonProperty}, which the binding honours too).
     */
    String name() default "";

    /** What the model should know to fill the argument in. */
    String description() default "";

    /**
     * False lets the caller leave the argument out or send {@code null}: a boxed type then arrives as
     * null (declare an {@code Optional} to receive {@code Optional.empty()} instead).
     */
    boolean required() default true;
}
