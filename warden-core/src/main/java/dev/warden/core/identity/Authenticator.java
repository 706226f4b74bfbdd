package dev.warden.core.identity;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/**
 * Decides who a request comes from (an OAuth 2.1 resource server, API keys). An HTTP server asks
 * it for every request before anything else is read, and serves its metadata. Implementations are
 * thread-safe and never throw for a bad credential: a refusal is a {@link Verdict.Refused} whose
 * reason is for the operator only.
 */
public interface Authenticator {

    /**
     * Judges a request's credentials for {@code resource}, this server's canonical URI (tokens must
     * be issued for it).
     */
    Verdict authenticate(Credentials credentials, URI resource);

    /** The RFC 9728 metadata for {@code resource}. */
    ProtectedResourceMetadata metadata(URI resource);

    /**
     * The canonical URI of the resource, when configured; otherwise the server's own endpoint URL
     * is (as the MCP authorization spec has it).
     */
    default Optional<URI> resource() {
        return Optional.empty();
    }

    /** The scopes every request needs (asked for in the 401 challenge). */
    default Set<String> requiredScopes() {
        return Set.of();
    }

    /**
     * The scopes a call of {@code tool} (by the name the client calls it) needs besides the
     * {@linkplain #requiredScopes() required} ones: without them it is refused with 403
     * {@code insufficient_scope}, and the client steps up.
     */
    default Set<String> scopesForTool(String tool) {
        return Set.of();
    }
}
