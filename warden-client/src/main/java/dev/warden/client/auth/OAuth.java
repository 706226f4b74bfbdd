package dev.warden.client.auth;

import dev.warden.client.http.HttpAuthorization;
import dev.warden.core.oauth.WellKnown;
import dev.warden.core.transport.UnauthorizedException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * MCP authorization for the HTTP client (the authorization spec of 2025-06-18 and 2025-11-25,
 * with the 2025-03-26 fallbacks): on a 401 it finds the protected resource metadata (from the
 * challenge's {@code resource_metadata}, else the path-based then the root well-known URL), the
 * authorization server's metadata (OAuth then OpenID locations, path-aware, issuer checked),
 * identifies the client (pre-registered, a client ID metadata document, or dynamic registration),
 * runs the authorization code flow with PKCE S256, {@code state} and the RFC 8707
 * {@code resource}, and authenticates at the token endpoint as the server allows (basic, post or
 * none). Scopes come from the challenge, else the resource's {@code scopes_supported}, else none;
 * a 403 {@code insufficient_scope} steps up to the union of held and asked scopes, once per scope
 * set: a server that keeps asking for scopes the client already holds is refused, not looped on.
 * Expired tokens are refreshed with the refresh token when there is one.
 *
 * <p>Credentials go only to HTTPS or loopback URLs. Tokens and secrets never appear in a log line
 * or a message.
 */
public final class OAuth implements HttpAuthorization {

    private static final System.Logger LOG = System.getLogger(OAuth.class.getName());
    static final String BASIC = "client_secret_basic";
    static final String POST = "client_secret_post";
    static final String NONE = "none";

    /** How the tokens were obtained: what a refresh needs. */
    private record Grant(ServerMetadata server, ClientCredentials client, Optional<URI> resource) {
    }

    private final URI redirectUri;
    private final UserAgent userAgent;
    private final AuthHttp http;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Discovery discovery;
    private final Registration registration;
    private volatile Optional<TokenSet> tokens = Optional.empty();
    private Optional<Grant> grant = Optional.empty();

    private OAuth(Builder b) {
        this.redirectUri = b.redirectUri;
        this.userAgent = b.userAgent;
        this.http = AuthHttp.ofDefaults();
        this.clock = b.clock;
        this.discovery = new Discovery(http);
        this.registration = new Registration(http, b.clientName, b.redirectUri, b.clientMetadataUrl, b.preRegistered);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Dynamic registration as "warden", the {@linkplain UserAgent#headless() headless} user agent. */
    public static OAuth ofDefaults() {
        return builder().build();
    }

    @Override
    public Optional<String> header() {
        Optional<TokenSet> held = tokens;
        if (held.isPresent() && held.get().stale(clock.instant()) && held.get().refreshToken().isPresent()) {
            lock.lock();
            try {
                if (tokens.equals(held) && !refresh(held.get())) {
                    tokens = Optional.empty(); // the request goes without; its 401 starts a new authorization
                }
            } finally {
                lock.unlock();
            }
        }
        return tokens.map(TokenSet::header);
    }

    @Override
    public void refused(URI endpoint, Optional<String> sent, int status, List<String> challenges) {
        lock.lock();
        try {
            if (!sent.equals(tokens.map(TokenSet::header))) {
                return; // another request already got new credentials: retry with those
            }
            Challenge challenge = Challenge.bearer(challenges);
            if (status == 403 && !challenge.insufficientScope()) {
                throw new UnauthorizedException("The server refused access (HTTP 403)", null);
            }
            if (status != 401 && status != 403) {
                throw new UnauthorizedException("The server refused access (HTTP " + status + ")", null);
            }
            if (!Endpoints.secure(endpoint)) {
                throw new UnauthorizedException(
                        "The server asks for credentials over plain HTTP to another machine; refused", null);
            }
            Optional<TokenSet> held = tokens;
            Set<String> wanted = new LinkedHashSet<>();
            if (status == 403) {
                Set<String> granted = held.map(TokenSet::scopes).orElse(Set.of());
                if (challenge.scopes().isEmpty() || granted.containsAll(challenge.scopes())) {
                    throw new UnauthorizedException("The server asks for scopes this client already holds;"
                            + " authorizing again would not help", null);
                }
                wanted.addAll(granted);
                wanted.addAll(challenge.scopes());
            } else {
                if (held.isPresent() && held.get().refreshToken().isPresent() && refresh(held.get())) {
                    return;
                }
                wanted.addAll(challenge.scopes());
            }
            tokens = Optional.of(authorize(endpoint, challenge, wanted));
            LOG.log(System.Logger.Level.DEBUG, "authorization: tokens obtained");
        } catch (AuthorizationStepException e) {
            throw new UnauthorizedException("Authorization failed: " + e.getMessage(), e.getCause());
        } finally {
            lock.unlock();
        }
    }

    private TokenSet authorize(URI endpoint, Challenge challenge, Set<String> wanted) {
        Discovery.Found found = discovery.discover(endpoint, challenge.resourceMetadata());
        ServerMetadata server = found.server();
        if (!server.codeChallengeMethods().contains("S256")) {
            throw new AuthorizationStepException("the authorization server does not offer PKCE with S256");
        }
        Set<String> scopes = !wanted.isEmpty() ? wanted
                : new LinkedHashSet<>(found.resource().map(ResourceMetadata::scopesSupported).orElse(List.of()));
        Optional<URI> resource = found.resource().map(ResourceMetadata::resource);
        ClientCredentials client = registration.client(server);
        Pkce pkce = Pkce.create();
        String state = Pkce.random(16);

        URI request = authorizationRequest(server, client.clientId(), redirectUri, state, pkce, scopes, resource);

        URI back;
        try {
            back = Objects.requireNonNull(userAgent.authorize(request, redirectUri), "the user agent's answer");
        } catch (AuthorizationStepException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AuthorizationStepException("the user agent did not complete the authorization", e);
        }
        if (!isRedirectTo(back, redirectUri)) {
            throw new AuthorizationStepException("the authorization answer did not come back to the redirect URI");
        }
        Map<String, String> answer = query(back);
        if (!state.equals(answer.get("state"))) {
            throw new AuthorizationStepException("the authorization answer's state does not match the request");
        }
        if (!CodeGrant.issuerMatches(server, Optional.ofNullable(answer.get("iss")))) {
            throw new AuthorizationStepException("the authorization answer's issuer is missing or not the expected one");
        }
        if (answer.containsKey("error")) {
            throw new AuthorizationStepException("the authorization server refused" + code(answer.get("error")));
        }
        String code = answer.get("code");
        if (code == null || code.isEmpty()) {
            throw new AuthorizationStepException("the authorization answer carries no code");
        }
        TokenSet issued = token(server, client, codeForm(code, redirectUri, pkce.verifier(), resource), scopes,
                Optional.empty());
        grant = Optional.of(new Grant(server, client, resource));
        return issued;
    }

    /** Tries the refresh token; false (and nothing thrown) when the server will not refresh. */
    private boolean refresh(TokenSet held) {
        Optional<Grant> g = grant;
        if (g.isEmpty() || held.refreshToken().isEmpty()) {
            return false;
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", held.refreshToken().get());
        g.get().resource().ifPresent(r -> form.put("resource", r.toString()));
        try {
            tokens = Optional.of(token(g.get().server(), g.get().client(), form, held.scopes(), held.refreshToken()));
            return true;
        } catch (AuthorizationStepException e) {
            LOG.log(System.Logger.Level.DEBUG, "authorization: refresh refused, authorizing again");
            return false;
        }
    }

    /** What the registration said, else the strongest the server offers that the client can do. */
    private static String tokenMethod(ServerMetadata server, ClientCredentials client) {
        Optional<String> told = client.method().filter(m -> m.equals(BASIC) || m.equals(POST) || m.equals(NONE));
        if (told.isPresent()) {
            return told.get().equals(NONE) || client.secret().isPresent() ? told.get() : NONE;
        }
        if (client.secret().isEmpty()) {
            return NONE;
        }
        List<String> offered = server.tokenEndpointAuthMethods();
        return offered.contains(BASIC) ? BASIC : offered.contains(POST) ? POST : offered.contains(NONE) ? NONE : BASIC;
    }

    private TokenSet token(ServerMetadata server, ClientCredentials client, Map<String, String> form,
            Set<String> requested, Optional<String> previousRefresh) {
        return token(http, server, client, form, requested, previousRefresh, clock.instant());
    }

    /** The authorization code request (PKCE S256, state, RFC 8707 resource) the user agent is sent to. */
    static URI authorizationRequest(ServerMetadata server, String clientId, URI redirectUri, String state, Pkce pkce,
            Set<String> scopes, Optional<URI> resource) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", redirectUri.toString());
        query.put("state", state);
        query.put("code_challenge", pkce.challenge());
        query.put("code_challenge_method", "S256");
        if (!scopes.isEmpty()) {
            query.put("scope", String.join(" ", scopes));
        }
        resource.ifPresent(r -> query.put("resource", r.toString()));
        String base = server.authorizationEndpoint().toString();
        return URI.create(base + (server.authorizationEndpoint().getRawQuery() == null ? "?" : "&")
                + AuthHttp.form(query));
    }

    /** The token request's form for an authorization code (RFC 6749 4.1.3, RFC 7636's verifier, RFC 8707's resource). */
    static Map<String, String> codeForm(String code, URI redirectUri, String verifier, Optional<URI> resource) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri.toString());
        form.put("code_verifier", verifier);
        resource.ifPresent(r -> form.put("resource", r.toString()));
        return form;
    }

    /** One request to the token endpoint, the client authenticated as it registered or as the server offers. */
    static TokenSet token(AuthHttp http, ServerMetadata server, ClientCredentials client, Map<String, String> form,
            Set<String> requested, Optional<String> previousRefresh, Instant now) {
        Optional<String> authorization = Optional.empty();
        switch (tokenMethod(server, client)) {
            case BASIC -> authorization = Optional.of("Basic " + Base64.getEncoder().encodeToString(
                    (AuthHttp.encode(client.clientId()) + ":" + AuthHttp.encode(client.secret().orElseThrow()))
                            .getBytes(StandardCharsets.UTF_8)));
            case POST -> {
                form.put("client_id", client.clientId());
                form.put("client_secret", client.secret().orElseThrow());
            }
            default -> form.put("client_id", client.clientId());
        }
        AuthHttp.Reply reply = http.postForm(server.tokenEndpoint(), form, authorization);
        return TokenSet.issued(reply, requested, previousRefresh, now);
    }

    static Optional<String> text(JsonNode json, String field) {
        JsonNode v = json.path(field);
        return v.isString() && !v.stringValue().isEmpty() ? Optional.of(v.stringValue()) : Optional.empty();
    }

    /** An OAuth error code, named only when it looks like one (the text is the server's). */
    static String code(String error) {
        if (error == null || error.isEmpty() || error.length() > 64) {
            return "";
        }
        for (int i = 0; i < error.length(); i++) {
            char c = error.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c == '_')) {
                return "";
            }
        }
        return " (" + error + ")";
    }

    static boolean isRedirectTo(URI answer, URI redirect) {
        return Objects.equals(lower(answer.getScheme()), lower(redirect.getScheme()))
                && Objects.equals(lower(answer.getHost()), lower(redirect.getHost()))
                && answer.getPort() == redirect.getPort()
                && WellKnown.path(answer).equals(WellKnown.path(redirect));
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(java.util.Locale.ROOT);
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new HashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.putIfAbsent(key, value);
        }
        return out;
    }

    public static final class Builder {
        private String clientName = "warden";
        private URI redirectUri = URI.create("http://127.0.0.1/callback");
        private Optional<URI> clientMetadataUrl = Optional.empty();
        private Optional<ClientCredentials> preRegistered = Optional.empty();
        private UserAgent userAgent = UserAgent.headless();
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** What decides when a token is stale and refreshed: the system clock (UTC) unless given. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The {@code client_name} sent at dynamic registration. */
        public Builder clientName(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("clientName must not be blank");
            }
            this.clientName = name;
            return this;
        }

        /** Where the authorization server sends the user back; absolute, without a fragment. */
        public Builder redirectUri(URI uri) {
            if (uri == null || !uri.isAbsolute() || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("redirectUri must be an absolute URI without a fragment, got "
                        + uri);
            }
            this.redirectUri = uri;
            return this;
        }

        /**
         * This client's metadata document (SEP-991): used as the {@code client_id} at servers that
         * support such documents, instead of registering.
         */
        public Builder clientMetadataUrl(URI url) {
            if (url == null || !"https".equalsIgnoreCase(url.getScheme()) || WellKnown.path(url).isEmpty()
                    || url.getRawFragment() != null) {
                throw new IllegalArgumentException("clientMetadataUrl must be an https URL with a path, got " + url);
            }
            this.clientMetadataUrl = Optional.of(url);
            return this;
        }

        /** A public client registered beforehand with the authorization server. */
        public Builder client(String clientId) {
            return client(clientId, Optional.empty());
        }

        /** A confidential client registered beforehand with the authorization server. */
        public Builder client(String clientId, String secret) {
            if (secret == null || secret.isEmpty()) {
                throw new IllegalArgumentException("secret must not be empty (use client(clientId) for a public client)");
            }
            return client(clientId, Optional.of(secret));
        }

        private Builder client(String clientId, Optional<String> secret) {
            if (clientId == null || clientId.isBlank()) {
                throw new IllegalArgumentException("clientId must not be blank");
            }
            this.preRegistered = Optional.of(new ClientCredentials(clientId, secret, Optional.empty()));
            return this;
        }

        public Builder userAgent(UserAgent agent) {
            this.userAgent = Objects.requireNonNull(agent, "userAgent");
            return this;
        }

        public OAuth build() {
            return new OAuth(this);
        }
    }
}
