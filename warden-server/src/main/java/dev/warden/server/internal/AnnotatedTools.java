package dev.warden.server.internal;

import dev.warden.core.mcp.Tools;
import dev.warden.schema.JsonSchemaValidator;
import dev.warden.server.Tool;
import dev.warden.server.ToolHandler;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link Tool} methods of an object, each read into what a spec needs. Every misuse is found
 * here, at registration, in a message that names the method, rather than at the first call.
 */
public final class AnnotatedTools {

    /** One tool method as a spec needs it; {@code where} names the method for error messages. */
    public record Declared(String where, String name, Optional<String> title, Optional<String> description,
                           Optional<Tools.Annotations> annotations, ObjectNode inputSchema,
                           Optional<ObjectNode> outputSchema, Function<JsonSchemaValidator, ToolHandler> handler) {
    }

    private AnnotatedTools() {
    }

    /**
     * The tools of {@code target}, sorted by name. A method overridden in a subclass (a framework's
     * proxy, say) is found on the class or interface that annotates it (a JDK proxy's only on its
     * interfaces) and called virtually, so the override runs.
     */
    public static List<Declared> declared(Object target, Optional<MethodHandles.Lookup> lookup) {
        Class<?> type = target.getClass();
        List<Declared> tools = new ArrayList<>();
        Set<String> signatures = new HashSet<>();
        for (Class<?> c : hierarchy(type)) {
            Set<String> declaredHere = new HashSet<>();
            for (Method method : c.getDeclaredMethods()) {
                Tool tool = method.getAnnotation(Tool.class);
                // javac copies the annotation onto bridges: the real method is the tool.
                if (tool != null && !method.isBridge() && !method.isSynthetic() && signatures.add(signature(method))) {
                    tools.add(declare(target, method, tool, lookup));
                    declaredHere.add(method.getName());
                }
            }
            for (Method method : c.getDeclaredMethods()) {
                if (method.isBridge() && declaredHere.contains(method.getName())) {
                    // A generic method overridden here: its erased form above is the same tool.
                    signatures.add(signature(method));
                }
            }
        }
        if (tools.isEmpty()) {
            throw new IllegalArgumentException("no @Tool method in " + type.getName());
        }
        tools.sort(Comparator.comparing(Declared::name));
        for (int i = 1; i < tools.size(); i++) {
            if (tools.get(i).name().equals(tools.get(i - 1).name())) {
                throw new IllegalArgumentException(tools.get(i - 1).where() + " and " + tools.get(i).where()
                        + " are both the tool \"" + tools.get(i).name() + "\"");
            }
        }
        return tools;
    }

    /** The classes from {@code type} up, then every interface they implement. */
    private static List<Class<?>> hierarchy(Class<?> type) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            classes.add(c);
        }
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        classes.forEach(c -> addInterfaces(c, interfaces));
        classes.addAll(interfaces);
        return classes;
    }

    private static void addInterfaces(Class<?> type, Set<Class<?>> into) {
        for (Class<?> i : type.getInterfaces()) {
            if (into.add(i)) {
                addInterfaces(i, into);
            }
        }
    }

    private static Declared declare(Object target, Method method, Tool tool, Optional<MethodHandles.Lookup> lookup) {
        String where = where(method);
        String name = tool.name().isEmpty() ? snakeCase(method.getName()) : tool.name();
        if (!Tools.isValidName(name)) {
            throw new IllegalArgumentException(where + ": the tool name \"" + name
                    + "\" must be 1 to 128 characters of A-Z a-z 0-9 _ - .");
        }
        try {
            MethodTool body = MethodTool.of(target, method, lookup);
            return new Declared(where, name, text(tool.title()), text(tool.description()), hints(tool),
                    body.inputSchema(), body.outputSchema(), body::handler);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.toString(method.getParameterTypes());
    }

    /** {@code OrderTools.cancel(CancelOrder, ToolContext)}: how messages name a method. */
    static String where(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "("
                + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
                + ")";
    }

    /** Only the hints that differ from what the spec assumes when a hint is absent. */
    private static Optional<Tools.Annotations> hints(Tool tool) {
        Optional<Boolean> readOnly = tool.readOnly() ? Optional.of(true) : Optional.empty();
        // The spec reads destructiveHint only when readOnlyHint is false: a read-only tool omits it.
        Optional<Boolean> destructive = tool.destructive() || tool.readOnly() ? Optional.empty() : Optional.of(false);
        Optional<Boolean> idempotent = tool.idempotent() ? Optional.of(true) : Optional.empty();
        Optional<Boolean> openWorld = tool.openWorld() ? Optional.empty() : Optional.of(false);
        if (readOnly.isEmpty() && destructive.isEmpty() && idempotent.isEmpty() && openWorld.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Tools.Annotations(Optional.empty(), readOnly, destructive, idempotent, openWorld));
    }

    private static Optional<String> text(String value) {
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** {@code cancelOrder} → {@code cancel_order}, {@code readHTTPStatus} → {@code read_http_status}. */
    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                char before = name.charAt(i - 1);
                boolean wordEnds = Character.isLowerCase(before) || Character.isDigit(before);
                boolean acronymEnds = Character.isUpperCase(before) && i + 1 < name.length()
                        && Character.isLowerCase(name.charAt(i + 1));
                if (wordEnds || acronymEnds) {
                    out.append('_');
                }
            }
            out.append(Character.toLowerCase(c));
        }
        return out.toString();
    }

    static boolean isStatic(Method method) {
        return Modifier.isStatic(method.getModifiers());
    }
}
