package dev.warden.gateway.internal.access;

import dev.warden.core.identity.Caller;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The variables a rule sees, as CEL's runtime takes them (strings, booleans, 64-bit integers,
 * doubles, lists and maps). {@code caller}: {@code subject}, {@code clientId} ("" when none),
 * {@code issuer}, {@code scopes} (a list), {@code claims} (a map), {@code kind} ({@code JWT},
 * {@code INTROSPECTED}, {@code API_KEY}, or "" for nobody) and {@code authenticated}. {@code mcp}:
 * {@code kind} ({@code tool}, {@code resource}, {@code prompt}), {@code upstream} (its configured
 * name), {@code name} (the upstream's own name; a resource's URI) and, for resources, {@code uri}.
 */
public final class Variables {

    /** An unauthenticated connection (stdio, loopback HTTP): no subject, no scopes, nothing claimed. */
    public static final Map<String, Object> NOBODY = Map.of("subject", "", "clientId", "", "issuer", "",
            "scopes", List.of(), "claims", Map.of(), "kind", "", "authenticated", false);

    private Variables() {
    }

    public static Map<String, Object> caller(Optional<Caller> caller) {
        if (caller.isEmpty()) {
            return NOBODY;
        }
        Caller c = caller.get();
        return Map.of("subject", c.subject(), "clientId", c.clientId().orElse(""), "issuer", c.issuer(),
                "scopes", c.scopes().stream().sorted().toList(), "claims", celValue(c.claims()),
                "kind", c.kind().name(), "authenticated", true);
    }

    public static Map<String, Object> tool(String upstream, String name) {
        return Map.of("kind", "tool", "upstream", upstream, "name", name);
    }

    public static Map<String, Object> prompt(String upstream, String name) {
        return Map.of("kind", "prompt", "upstream", upstream, "name", name);
    }

    /** A resource, or a resource template (its URI template as {@code uri}). */
    public static Map<String, Object> resource(String upstream, String uri) {
        return Map.of("kind", "resource", "upstream", upstream, "name", uri, "uri", uri);
    }

    /**
     * A claim's JSON value as CEL holds it: whole numbers as {@code long}, others as {@code double},
     * lists and maps converted throughout; nulls dropped (CEL's maps and lists hold none here).
     */
    static Object celValue(Object value) {
        return switch (value) {
            case String s -> s;
            case Boolean b -> b;
            case Integer i -> (long) i;
            case Long l -> l;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case BigInteger b -> b.bitLength() < 64 ? (Object) b.longValue() : b.doubleValue();
            case BigDecimal d -> d.scale() <= 0 && d.precision() - d.scale() < 19 ? (Object) d.longValue()
                    : d.doubleValue();
            case Number n -> n.doubleValue();
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> {
                    if (k != null && v != null) {
                        out.put(k.toString(), celValue(v));
                    }
                });
                yield out;
            }
            case Iterable<?> list -> {
                List<Object> out = new ArrayList<>();
                list.forEach(v -> {
                    if (v != null) {
                        out.add(celValue(v));
                    }
                });
                yield out;
            }
            default -> value.toString();
        };
    }
}
