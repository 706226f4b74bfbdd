package dev.warden.server.internal;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The type variables of a target's generic supertypes, as the target's class binds them: a
 * {@code @Tool String run(A args)} declared on {@code Base<A extends Record>} takes the record that
 * {@code PingTool extends Base<Ping>} names. A schema made from the bare variable would be useless.
 */
final class TypeBindings {

    private final Class<?> target;
    private final Map<TypeVariable<?>, Type> bindings = new HashMap<>();

    TypeBindings(Class<?> target) {
        this.target = target;
        collect(target);
    }

    /** {@code type} with its class type variables bound; refused where the target leaves one open. */
    Type resolve(Type type) {
        if (type instanceof TypeVariable<?> variable) {
            Type bound = bindings.get(variable);
            if (bound == null || bound instanceof TypeVariable<?>) {
                throw new IllegalArgumentException("uses the type variable " + variable.getName() + ", which "
                        + target.getSimpleName() + " does not bind to a type: extend the generic class with a "
                        + "concrete type argument, or declare the type on the method");
            }
            return bound;
        }
        if (open(type)) {
            throw new IllegalArgumentException("uses the generic type " + type.getTypeName() + ": declare a "
                    + "concrete type (a record, or a List of one) on the tool method");
        }
        return type;
    }

    /** The raw class of a resolved type. */
    static Class<?> raw(Type type) {
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return type instanceof Class<?> c ? c : Object.class;
    }

    private static boolean open(Type type) {
        return type instanceof TypeVariable<?> || type instanceof GenericArrayType g && open(g.getGenericComponentType())
                || type instanceof WildcardType w && Arrays.stream(w.getUpperBounds()).anyMatch(TypeBindings::open)
                || type instanceof ParameterizedType p && Arrays.stream(p.getActualTypeArguments()).anyMatch(TypeBindings::open);
    }

    private void collect(Class<?> type) {
        if (type == null || type == Object.class) {
            return;
        }
        bind(type.getGenericSuperclass());
        for (Type i : type.getGenericInterfaces()) {
            bind(i);
        }
    }

    private void bind(Type supertype) {
        if (supertype instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            TypeVariable<?>[] variables = raw.getTypeParameters();
            Type[] arguments = p.getActualTypeArguments();
            for (int i = 0; i < variables.length; i++) {
                Type argument = arguments[i];
                bindings.put(variables[i], argument instanceof TypeVariable<?> v && bindings.containsKey(v)
                        ? bindings.get(v) : argument);
            }
            collect(raw);
        } else if (supertype instanceof Class<?> c) {
            collect(c);
        }
    }
}
