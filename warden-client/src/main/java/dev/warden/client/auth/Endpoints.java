package dev.warden.client.auth;

import dev.warden.client.http.Loopback;
import dev.warden.core.oauth.WellKnown;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** URL rules of the authorization flow: where credentials may go, and which resource covers which. */
final class Endpoints {

    private Endpoints() {
    }

    /**
     * HTTPS, or plain HTTP to this machine: the spec requires HTTPS for every authorization
     * endpoint, and a bearer token or client secret must not cross a network in clear text.
     */
    static boolean secure(URI uri) {
        if (uri == null || uri.getHost() == null || uri.getRawFragment() != null) {
            return false;
        }
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        return scheme.equals("https") || scheme.equals("http") && loopback(uri.getHost());
    }

    static boolean loopback(String host) {
        return Loopback.host(host);
    }

    /** An absolute URL from metadata, or empty when it is missing, malformed or not {@link #secure}. */
    static Optional<URI> parse(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(value);
            return uri.isAbsolute() && secure(uri) ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /** Same origin, and {@code resource}'s path is {@code endpoint}'s path or a parent of it. */
    static boolean covers(URI resource, URI endpoint) {
        if (!WellKnown.origin(resource).toString().equalsIgnoreCase(WellKnown.origin(endpoint).toString())) {
            return false;
        }
        String r = WellKnown.path(resource);
        String e = WellKnown.path(endpoint);
        return e.equals(r) || e.startsWith(r + "/");
    }
}
