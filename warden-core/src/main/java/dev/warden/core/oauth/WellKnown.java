package dev.warden.core.oauth;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** Where OAuth metadata is published, in the order the MCP authorization spec asks clients to look. */
public final class WellKnown {

    /** RFC 8414's well-known suffix for authorization server metadata. */
    public static final String AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server";
    /** OpenID Connect Discovery's. */
    public static final String OPENID_CONFIGURATION = "/.well-known/openid-configuration";
    /** RFC 9728's, for protected resource metadata. */
    public static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";

    private WellKnown() {
    }

    /**
     * RFC 8414 and OpenID Connect Discovery locations of an issuer's metadata: for an issuer with
     * a path, the well-known segment goes before the path (both kinds), then OpenID's own form
     * after it.
     */
    public static List<URI> authorizationServer(URI issuer) {
        URI origin = origin(issuer);
        String path = path(issuer);
        if (path.isEmpty()) {
            return List.of(origin.resolve(AUTHORIZATION_SERVER), origin.resolve(OPENID_CONFIGURATION));
        }
        return List.of(URI.create(origin + AUTHORIZATION_SERVER + path),
                URI.create(origin + OPENID_CONFIGURATION + path),
                URI.create(origin + path + OPENID_CONFIGURATION));
    }

    /** RFC 9728 section 3.1: the path form for a resource with a path, then the root form. */
    public static List<URI> protectedResource(URI resource) {
        URI root = origin(resource).resolve(PROTECTED_RESOURCE);
        String path = path(resource);
        return path.isEmpty() ? List.of(root) : List.of(URI.create(root + path), root);
    }

    /**
     * RFC 9728 section 3.1 for the resource server itself: where it publishes its metadata (and
     * names it in a challenge). Only the slash right after the host goes; the path is kept as
     * configured, trailing slash included, so it names exactly what the server answers on.
     */
    public static URI publishedProtectedResource(URI resource) {
        String path = Optional.ofNullable(resource.getRawPath()).filter(p -> !p.equals("/")).orElse("");
        return URI.create(origin(resource) + PROTECTED_RESOURCE + path);
    }

    public static URI origin(URI uri) {
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority());
    }

    /** The path without its trailing slashes ({@code ""} for the root). */
    public static String path(URI uri) {
        String p = Optional.ofNullable(uri.getRawPath()).orElse("");
        int end = p.length();
        while (end > 0 && p.charAt(end - 1) == '/') {
            end--;
        }
        return p.substring(0, end);
    }
}
