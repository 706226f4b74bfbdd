package dev.warden.client.http;

import dev.warden.core.transport.UnauthorizedException;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * What the HTTP transport asks when a server wants credentials: the {@code Authorization} value to
 * send, and what to do about a 401 or a 403 {@code insufficient_scope}. {@link
 * dev.warden.client.auth.OAuth} is the implementation that speaks the MCP authorization spec.
 */
public interface HttpAuthorization {

    /** The {@code Authorization} header to send now, if there is one (refreshed first if stale). */
    Optional<String> header();

    /**
     * The server at {@code endpoint} refused a request sent with {@code sent} (empty: sent
     * without). Returns when a retry may succeed (new credentials, or another thread already got
     * them); throws when it would not.
     *
     * @param challenges the response's {@code WWW-Authenticate} values, untrusted
     * @throws UnauthorizedException when authorization cannot fix it
     */
    void refused(URI endpoint, Optional<String> sent, int status, List<String> challenges);
}
