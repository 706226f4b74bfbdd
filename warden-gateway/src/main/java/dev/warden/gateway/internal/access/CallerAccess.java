package dev.warden.gateway.internal.access;

import dev.warden.core.identity.Caller;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one connection's caller may see and use, by the gateway's access rules: everything when
 * there are none. What it may not is invisible, as a tool that {@code tools.deny} hides: left out
 * of every list, and answered as an unknown one when named.
 */
public final class CallerAccess {

    private final Optional<AccessPolicy> policy;
    /** The scopes a tool needs of the caller's token ({@code toolScopes}); none without an authenticator. */
    private final java.util.function.Function<String, java.util.Set<String>> toolScopes;
    /** The caller as of the connection's latest request: a session's scopes grow when its client steps up. */
    private final Supplier<Optional<Caller>> caller;
    /** The rules' view of the caller, made again only when the caller changes. */
    private volatile Seen seen = new Seen(Optional.empty(), Map.of());

    private record Seen(Optional<Caller> caller, Map<String, Object> variables) {
    }

    public CallerAccess(Optional<AccessPolicy> policy, Supplier<Optional<Caller>> caller,
            java.util.function.Function<String, java.util.Set<String>> toolScopes) {
        this.policy = policy;
        this.toolScopes = toolScopes;
        this.caller = caller;
    }

    /**
     * Whether rules apply: only then is an upstream's own not-found answered as the gateway's
     * (so a hidden item and a missing one look alike); without rules, answers pass as they did.
     */
    public boolean ruled() {
        return policy.isPresent();
    }

    public boolean tool(String upstream, String name) {
        return allows(() -> Variables.tool(upstream, name));
    }

    /**
     * Whether the caller's token has the scopes the tool needs ({@code toolScopes}, by the name the
     * client calls it). The HTTP server checks them on {@code tools/call}; what stands for a call
     * later (its task) is checked here. True for a caller nobody authenticated.
     */
    public boolean scoped(String exposedTool) {
        java.util.Set<String> needed = toolScopes.apply(exposedTool);
        return needed.isEmpty() || caller.get().map(c -> c.hasScopes(needed)).orElse(true);
    }

    public boolean prompt(String upstream, String name) {
        return allows(() -> Variables.prompt(upstream, name));
    }

    /** A resource by its URI, or a resource template by its URI template. */
    public boolean resource(String upstream, String uri) {
        return allows(() -> Variables.resource(upstream, uri));
    }

    private boolean allows(Supplier<Map<String, Object>> item) {
        if (policy.isEmpty()) {
            return true;
        }
        Optional<Caller> now = caller.get();
        Seen last = seen;
        // The profile hands out the same caller object until its credentials change.
        if (last.caller().orElse(null) != now.orElse(null) || last.variables().isEmpty()) {
            last = new Seen(now, Variables.caller(now));
            seen = last;
        }
        AccessPolicy p = policy.get();
        return p.rules().allows(last.variables(), item.get(), p::failed);
    }
}
