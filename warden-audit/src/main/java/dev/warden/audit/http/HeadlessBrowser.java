package dev.warden.audit.http;

import dev.warden.client.http.Loopback;
import dev.warden.client.auth.UserAgent;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The audit's user agent for {@code --oauth}: no browser and no user, it follows the authorization
 * server's redirects until one comes back to the redirect URI, keeping the cookies the server sets
 * on the way as a browser would (oidc-provider, Keycloak and most others tie the login and consent
 * steps to a cookie; the client SDK's {@link UserAgent#headless()} keeps none). For authorization
 * servers that approve the client without asking anyone. Each authorization gets a cookie jar of
 * its own; only HTTPS and loopback URLs are followed.
 */
public final class HeadlessBrowser implements UserAgent {

    /** Redirects followed at most: a login and a consent step each take two. */
    public static final int MAX_HOPS = 10;

    private final Duration timeout;

    private HeadlessBrowser(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** Each request waits at most {@code timeout}. */
    public static HeadlessBrowser of(Duration timeout) {
        return new HeadlessBrowser(timeout);
    }

    @Override
    public URI authorize(URI authorizationRequest, URI redirectUri) {
        try (HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build()) {
            URI next = authorizationRequest;
            for (int hop = 0; hop < MAX_HOPS; hop++) {
                if (!followable(next)) {
                    throw new IllegalStateException("the authorization server redirected to a URL that is neither "
                            + "HTTPS nor loopback");
                }
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(next).timeout(timeout)
                        .header("Accept", "text/html").GET().build(), HttpResponse.BodyHandlers.discarding());
                Optional<String> location = r.headers().firstValue("Location");
                if (r.statusCode() / 100 != 3 || location.isEmpty()) {
                    throw new IllegalStateException("the authorization server asked for a user (HTTP "
                            + r.statusCode() + " without a redirect)");
                }
                next = next.resolve(location.get());
                if (sameEndpoint(next, redirectUri)) {
                    return next;
                }
            }
            throw new IllegalStateException("the authorization server redirected more than " + MAX_HOPS + " times");
        } catch (IOException e) {
            throw new IllegalStateException("the authorization server could not be reached", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Whether {@code uri} is the redirect URI with a query of its own: scheme, host, port and path alike. */
    static boolean sameEndpoint(URI uri, URI redirect) {
        return lower(uri.getScheme()).equals(lower(redirect.getScheme()))
                && lower(uri.getHost()).equals(lower(redirect.getHost()))
                && uri.getPort() == redirect.getPort()
                && Objects.equals(path(uri), path(redirect));
    }

    /** HTTPS anywhere, plain HTTP only to this machine. */
    static boolean followable(URI uri) {
        String scheme = lower(uri.getScheme());
        if ("https".equals(scheme)) {
            return true;
        }
        if (!"http".equals(scheme) || uri.getHost() == null) {
            return false;
        }
        return Loopback.of(uri);
    }

    private static String path(URI uri) {
        String p = uri.getRawPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }
}
