package dev.warden.client.auth;

import java.net.URI;
import java.util.Optional;

/**
 * Where the user meets the authorization server: takes the authorization request URL and returns
 * the redirect back to the client ({@code redirectUri} with {@code code} and {@code state}).
 * An interactive application opens a browser and listens on its loopback redirect URI.
 */
@FunctionalInterface
public interface UserAgent {

    /** Redirects followed before the answer must have come back to the redirect URI. */
    int MAX_REDIRECTS = 5;

    /**
     * @return the URI the authorization server redirected to, which must start with {@code redirectUri}
     * @throws RuntimeException when the user declined or the browser step failed
     */
    URI authorize(URI authorizationRequest, URI redirectUri);

    /**
     * No browser: fetches the authorization URL and follows its redirects (HTTPS or loopback only)
     * until one comes back to the redirect URI. For authorization servers that approve this client
     * without asking anyone (pre-approved clients, test servers, the conformance suite).
     */
    static UserAgent headless() {
        AuthHttp http = AuthHttp.ofDefaults();
        return (request, redirectUri) -> {
            URI next = request;
            for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
                AuthHttp.Reply reply = http.get(next, "text/html");
                Optional<URI> location = reply.location().flatMap(l -> {
                    try {
                        return Optional.of(request.resolve(l));
                    } catch (IllegalArgumentException e) {
                        return Optional.empty();
                    }
                });
                if (reply.status() / 100 != 3 || location.isEmpty()) {
                    throw new AuthorizationStepException(
                            "the authorization server did not redirect back without user interaction");
                }
                if (OAuth.isRedirectTo(location.get(), redirectUri)) {
                    return location.get();
                }
                next = location.get();
            }
            throw new AuthorizationStepException("the authorization server redirected too many times");
        };
    }
}
