package dev.warden.gateway.config;

import dev.warden.gateway.internal.access.AccessRules;
import java.util.List;

/**
 * {@code access: { rules: [...] }}: who may see and use which tools, resources and prompts. Each
 * rule is a CEL expression over {@code caller} (subject, clientId, issuer, scopes, claims, kind,
 * authenticated) and {@code mcp} (kind, upstream, name, and a resource's uri); an item is visible
 * and usable iff at least one rule is true. A rule that fails at run time counts as false. With
 * no {@code access} section everything is allowed.
 *
 * <pre>{@code
 * access:
 *   rules:
 *     - 'mcp.kind == "tool" && mcp.name == "echo"'
 *     - '"mcp:admin" in caller.scopes'
 *     - 'caller.subject == "alice" && mcp.upstream == "files"'
 * }</pre>
 *
 * @param rules the CEL expressions, each compiled and type-checked to a boolean here
 */
public record Access(List<String> rules) {

    /**
     * @throws IllegalArgumentException if there is no rule, or naming the first that does not
     *     compile or is not a boolean ({@code rules[1]: ...}, with CEL's own message)
     */
    public Access {
        rules = List.copyOf(rules);
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("rules: expected at least one CEL expression");
        }
        AccessRules.compile(rules);
    }

    public static Access of(String... rules) {
        return new Access(List.of(rules));
    }
}
