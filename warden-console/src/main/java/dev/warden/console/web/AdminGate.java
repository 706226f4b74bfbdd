package dev.warden.console.web;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ScopeToken;
import dev.warden.core.identity.Verdict;
import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Who may read the console: with the gateway's auth configured, a caller the gateway's own
 * authenticator admits (a token issued for the gateway's resource, or an API key) and who holds
 * the admin scope besides; 401 without a valid credential, 403 without the gateway's scopes or the
 * admin scope, each naming every scope needed (the gateway's and the console's). The answers are
 * fixed text: the authenticator's reason is for the operator and goes nowhere here.
 */
public final class AdminGate {

    /** The admin scope unless configured: beyond what MCP clients are given. */
    public static final String DEFAULT_SCOPE = "warden:admin";

    private final Optional<Authenticator> authenticator;
    private final Supplier<URI> resource;
    private final String scope;

    /**
     * @param resource the gateway's resource URI (its configured one, or its MCP endpoint): tokens
     *     are issued for the gateway, and the console is part of it
     */
    public AdminGate(Optional<Authenticator> authenticator, Supplier<URI> resource, String scope) {
        this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
        this.resource = Objects.requireNonNull(resource, "resource");
        if (!ScopeToken.valid(scope)) {
            throw new IllegalArgumentException("the console's admin scope must be one OAuth scope (printable ASCII, "
                    + "no space, quote or backslash), got \"" + scope + "\"");
        }
        this.scope = scope;
    }

    /** Nobody is authenticated here (the gateway has no auth): every request that reaches it passes. */
    public static AdminGate open() {
        return new AdminGate(Optional.empty(), () -> URI.create("http://127.0.0.1/"), DEFAULT_SCOPE);
    }

    public boolean enabled() {
        return authenticator.isPresent();
    }

    /** Empty when the request may read; else the refusal to answer with. */
    public Optional<Answer> refusal(Headers headers) {
        if (authenticator.isEmpty()) {
            return Optional.empty();
        }
        List<String> authorization = Objects.requireNonNullElse(headers.get("Authorization"), List.of());
        List<String> apiKey = Objects.requireNonNullElse(headers.get("X-API-Key"), List.of());
        if (authorization.size() > 1 || apiKey.size() > 1) {
            return Optional.of(Answer.plain(400, "one credential per request",
                    Map.of("WWW-Authenticate", "Bearer error=\"invalid_request\"")));
        }
        Credentials credentials = new Credentials(authorization.stream().findFirst(), apiKey.stream().findFirst());
        return switch (authenticator.get().authenticate(credentials, resource.get())) {
            case Verdict.Admitted admitted -> admitted.caller().hasScopes(java.util.Set.of(scope)) ? Optional.empty()
                    : Optional.of(insufficientScope());
            case Verdict.Refused refused -> Optional.of(switch (refused.refusal()) {
                case MISSING -> Answer.plain(401, "the console needs a credential with the " + scopesNamed(),
                        Map.of("WWW-Authenticate", "Bearer scope=\"" + scopes() + "\""));
                case INVALID_TOKEN -> Answer.plain(401, "the credential is not valid",
                        Map.of("WWW-Authenticate", "Bearer error=\"invalid_token\", scope=\"" + scopes() + "\""));
                case INVALID_REQUEST -> Answer.plain(400, "the request's credentials are malformed",
                        Map.of("WWW-Authenticate", "Bearer error=\"invalid_request\""));
                // the gateway's own required scopes are missing: the admin scope is not enough alone
                case INSUFFICIENT_SCOPE -> insufficientScope();
            });
        };
    }

    /**
     * A credential lacking the gateway's required scopes or the console's: every scope the console
     * needs is named, so that a client stepping up asks for all of them at once.
     */
    private Answer insufficientScope() {
        return Answer.plain(403, "the console needs the " + scopesNamed(),
                Map.of("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"" + scopes() + "\""));
    }

    /**
     * Every scope a reader needs, space-separated in order: the gateway's required ones (only those
     * a challenge may carry) and the console's.
     */
    private String scopes() {
        java.util.Set<String> all = new java.util.TreeSet<>();
        authenticator.orElseThrow().requiredScopes().stream().filter(ScopeToken::valid).forEach(all::add);
        all.add(scope);
        return String.join(" ", all);
    }

    private String scopesNamed() {
        String all = scopes();
        return (all.indexOf(' ') < 0 ? "scope " : "scopes ") + all;
    }
}
