package dev.warden.server;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method as a tool, registered with {@link McpServer.Builder#tools(Object)} or turned into
 * a spec by {@link ToolSpec#fromMethods(Object)}. The method takes one record (the arguments) or
 * several parameters (each an argument, named by {@code -parameters} or {@link ToolParam#name}),
 * plus at most one {@link ToolContext}; it returns a {@link ToolResult}, a {@code String} (text), a
 * record (structured content, with an output schema generated from it) or nothing.
 *
 * <p>The hints default to what the MCP spec assumes when a hint is absent (not read-only,
 * destructive, not idempotent, open world); only the hints that differ are sent, and a read-only
 * tool sends no destructive hint (the spec reads it only when a tool is not read-only).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Tool {

    /** The tool's name; the method's name in snake_case when empty ({@code cancelOrder} → {@code cancel_order}). */
    String name() default "";

    String title() default "";

    String description() default "";

    boolean readOnly() default false;

    boolean destructive() default true;

    boolean idempotent() default false;

    boolean openWorld() default true;
}
