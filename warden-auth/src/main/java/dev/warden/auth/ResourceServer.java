package dev.warden.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import dev.warden.auth.internal.Checked;
import dev.warden.auth.internal.Claims;
import dev.warden.auth.internal.Discovery;
import dev.warden.auth.internal.Http;
import dev.warden.auth.internal.Introspector;
import dev.warden.auth.internal.JwtCheck;
import dev.warden.auth.internal.Presented;
import dev.warden.auth.internal.TokenCache;
import dev.warden.auth.internal.ToolScopes;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.PresentedToken;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.ScopeToken;
import dev.warden.core.identity.Verdict;
import dev.warden.core.identity.Verdict.Refusal;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An OAuth 2.1 resource server as the MCP authorization spec asks, with API keys beside it: a JWT is
 * verified against the configured issuer its {@code iss} names (else refused with no network call),
 * another token introspected. Refusals name their reason for the operator only. Thread-safe; built
 * with {@link #custom()}. What it checks and caches, and for how long: docs/design/resource-server.md.
 */
public final class ResourceServer implements Authenticator {

    private record IssuerCheck(Issuer issuer, JwtCheck jwt) {
    }

    private final Optional<URI> resource;
    private final Map<String, IssuerCheck> issuers;
    private final Introspector introspector;
    private final Optional<ApiKeys> apiKeys;
    private final Set<String> required;
    private final ToolScopes toolScopes;
    private final List<URI> servers;
    private final InstantSource clock;
    private final Duration skew;
    /** Admitted JWTs, by the SHA-256 of the token and the resource. */
    private final TokenCache verifiedJwts = new TokenCache();

    /**
     * How long a verified JWT is taken as verified without checking its signature again (never
     * past its exp): short, so a key removed from the JWK set stops working within the JWK set's
     * own cache lifetime plus this.
     */
    public static final Duration VERIFIED_JWT_TTL = Duration.ofSeconds(60);

    private ResourceServer(Builder b) {
        this.resource = b.resource;
        this.required = Set.copyOf(b.requiredScopes);
        this.toolScopes = new ToolScopes(b.toolScopes);
        this.apiKeys = b.apiKeys;
        this.clock = b.clock;
        this.skew = b.clockSkew;
        Http http = new Http(b.httpClient.orElseGet(Http::defaultClient));
        Map<String, IssuerCheck> checks = new LinkedHashMap<>();
        List<Introspector.Target> targets = new ArrayList<>();
        for (Issuer i : b.issuers) {
            Discovery discovery = new Discovery(i.issuer(), http, clock);
            checks.put(i.issuer().toString(), new IssuerCheck(i, new JwtCheck(i.issuer(), i.jwksUri(), discovery,
                    i.algorithms(), b.clockSkew, clock, http, b.jwksCacheLifetime, b.jwksRefetchInterval)));
            i.introspection().ifPresent(in -> targets.add(new Introspector.Target(i.issuer(), in.endpoint(),
                    in.clientId(), in.clientSecret(), discovery, i.audiences())));
        }
        this.issuers = Map.copyOf(checks);
        this.servers = b.issuers.stream().map(Issuer::issuer).toList();
        this.introspector = new Introspector(targets, checks.keySet(), http, clock, b.clockSkew);
    }

    public static Builder custom() {
        return new Builder();
    }

    /**
     * Never throws for a bad credential: whatever a library makes of hostile input, the answer is a
     * refusal (its reason names the exception's class, never its message, which could quote the
     * credential).
     */
    @Override
    public Verdict authenticate(Credentials credentials, URI requested) {
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(requested, "requested");
        try {
            return judge(credentials, resource.orElse(requested));
        } catch (RuntimeException e) {
            return refuse(Refusal.INVALID_TOKEN, "the credential could not be checked: " + e.getClass().getName());
        }
    }

    private Verdict judge(Credentials credentials, URI aud) {
        Checked checked;
        switch (Presented.of(credentials)) {
            case Presented.Nothing n -> {
                return refuse(Refusal.MISSING, "no credential");
            }
            case Presented.Malformed m -> {
                return refuse(Refusal.INVALID_REQUEST, m.reason());
            }
            case Presented.ApiKey k -> checked = apiKey(k.key());
            case Presented.Bearer t -> checked = notAnApiKey(token(t.token(), aud));
        }
        return switch (checked) {
            case Checked.Bad bad -> refuse(Refusal.INVALID_TOKEN, bad.reason());
            case Checked.Ok ok when !ok.caller().hasScopes(required) -> {
                Set<String> ask = new LinkedHashSet<>(required);
                ask.addAll(ok.caller().scopes());
                yield new Verdict.Refused(Refusal.INSUFFICIENT_SCOPE, ask,
                        ok.caller().subject() + " lacks the scopes " + missing(ok.caller()));
            }
            case Checked.Ok ok -> new Verdict.Admitted(ok.caller());
        };
    }

    /**
     * {@code key:NAME} is an API key's subject: a token (from any issuer) claiming one is refused, so
     * that a rule, limit or record written for the key never applies to a token that repeats its name.
     */
    private static Checked notAnApiKey(Checked checked) {
        if (checked instanceof Checked.Ok ok && ok.caller().subject().startsWith(ApiKeys.SUBJECT_PREFIX)) {
            return new Checked.Bad("a token whose sub (from " + ok.caller().issuer() + ") is in the API keys' "
                    + ApiKeys.SUBJECT_PREFIX + " namespace");
        }
        return checked;
    }

    private Set<String> missing(Caller caller) {
        Set<String> m = new LinkedHashSet<>(required);
        m.removeAll(caller.scopes());
        return m;
    }

    private Verdict refuse(Refusal refusal, String reason) {
        return new Verdict.Refused(refusal, required, reason);
    }

    private Checked apiKey(String key) {
        if (apiKeys.isEmpty()) {
            return new Checked.Bad("an API key was presented and none are configured");
        }
        // One answer for an unknown key and a wrong one: both are simply not a stored digest.
        return apiKeys.get().match(key, clock.millis()).<Checked>map(Checked.Ok::new)
                .orElseGet(() -> new Checked.Bad("not a known API key"));
    }

    private Checked token(String token, URI aud) {
        // A client sends the same token with every request: its signature is checked once, and
        // the answer kept for a while (never past its exp), so the RSA or EC verification is
        // not paid again on each request (it was two fifths of the gateway's CPU under load).
        long now = clock.millis();
        String key = TokenCache.key(token, aud.toString());
        Optional<Checked> verified = verifiedJwts.get(key, now);
        if (verified.isPresent()) {
            return verified.get();
        }
        Checked checked = verify(token, aud);
        if (checked instanceof Checked.Ok ok && ok.caller().kind() == Caller.Kind.JWT
                && ok.caller().claims().get("exp") instanceof Number exp) {
            long until = Math.min(exp.longValue() * 1000 + skew.toMillis(), now + VERIFIED_JWT_TTL.toMillis());
            verifiedJwts.put(key, checked, until, now);
        }
        return checked;
    }

    private Checked verify(String token, URI aud) {
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException notAJwt) {
            if (!introspector.enabled()) {
                return new Checked.Bad("not a JWT, and no issuer is configured to introspect opaque tokens");
            }
            return introspector.check(token, aud);
        }
        if (!(jwt instanceof SignedJWT signed)) {
            return new Checked.Bad("an unsigned (alg none) or encrypted JWT");
        }
        if (!JwtCheck.canonical(token)) {
            return new Checked.Bad("a JWT whose parts are not canonical base64url (padding, or unused bits set)");
        }
        String iss;
        try {
            iss = signed.getJWTClaimsSet().getIssuer();
        } catch (ParseException e) {
            return new Checked.Bad("a JWT whose claims do not parse: " + e.getMessage());
        }
        IssuerCheck check = iss == null ? null : issuers.get(iss);
        if (check == null) {
            return new Checked.Bad(iss == null ? "a JWT without iss" : "a JWT from an issuer that is not configured");
        }
        JWTClaimsSet claims;
        try {
            claims = check.jwt().verify(signed);
        } catch (BadJOSEException | JOSEException | IOException e) {
            return new Checked.Bad("JWT from " + iss + " refused: " + e.getMessage());
        }
        Set<String> accepted = check.issuer().audiences().isEmpty() ? Set.of(aud.toString()) : check.issuer().audiences();
        if (!Claims.audienceMatches(claims.getClaim("aud"), accepted)) {
            return new Checked.Bad("JWT from " + iss + " is for another audience than " + accepted);
        }
        return new Checked.Ok(Claims.caller(claims.toJSONObject(), claims.getSubject(), iss, Caller.Kind.JWT,
                Optional.of(new PresentedToken(token))));
    }

    @Override
    public ProtectedResourceMetadata metadata(URI requested) {
        Set<String> scopes = new LinkedHashSet<>(required);
        scopes.addAll(toolScopes.all());
        return new ProtectedResourceMetadata(resource.orElse(requested),
                servers, List.copyOf(scopes));
    }

    @Override
    public Optional<URI> resource() {
        return resource;
    }

    @Override
    public Set<String> requiredScopes() {
        return required;
    }

    @Override
    public Set<String> scopesForTool(String tool) {
        return toolScopes.forTool(tool);
    }

    /**
     * Builds a {@link ResourceServer}; {@link #build()} fails fast naming the bad value. At least
     * one issuer or API keys are needed.
     */
    public static final class Builder {
        /** At most this much skew between the authorization server's clock and ours. */
        public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

        private Optional<URI> resource = Optional.empty();
        private final List<Issuer> issuers = new ArrayList<>();
        private Optional<ApiKeys> apiKeys = Optional.empty();
        private Set<String> requiredScopes = Set.of();
        private final Map<String, Set<String>> toolScopes = new LinkedHashMap<>();
        private Duration clockSkew = Duration.ofSeconds(60);
        private InstantSource clock = InstantSource.system();
        private Optional<HttpClient> httpClient = Optional.empty();
        private Duration jwksCacheLifetime = Duration.ofMinutes(5);
        private Duration jwksRefetchInterval = Duration.ofSeconds(30);

        private Builder() {
        }

        /** The resource's canonical URI (RFC 8707); default: the URI each request is for. */
        public Builder resource(URI resource) {
            Issuer.requireHttp(resource, "resource");
            if (resource.getRawFragment() != null) {
                throw new IllegalArgumentException("a resource URI has no fragment, got " + resource);
            }
            this.resource = Optional.of(resource);
            return this;
        }

        /** An issuer whose tokens are accepted; may be called for several. */
        public Builder issuer(Issuer issuer) {
            Objects.requireNonNull(issuer, "issuer");
            if (issuers.stream().anyMatch(i -> i.issuer().equals(issuer.issuer()))) {
                throw new IllegalArgumentException("issuer " + issuer.issuer() + " is given twice");
            }
            issuers.add(issuer);
            return this;
        }

        public Builder apiKeys(ApiKeys apiKeys) {
            this.apiKeys = Optional.of(Objects.requireNonNull(apiKeys, "apiKeys"));
            return this;
        }

        /** The scopes every request needs. */
        public Builder requiredScopes(Set<String> scopes) {
            if (!scopes.stream().allMatch(ScopeToken::valid)) {
                throw new IllegalArgumentException("scopes are RFC 6749 scope tokens (printable ASCII without spaces, "
                        + "quotes or backslashes), got " + scopes);
            }
            this.requiredScopes = Set.copyOf(scopes);
            return this;
        }

        /**
         * Extra scopes per tool: a pattern is a tool's name, or a prefix and a trailing {@code *};
         * a tool needs the scopes of every pattern it matches.
         */
        public Builder toolScopes(Map<String, Set<String>> byPattern) {
            byPattern.forEach((glob, scopes) -> {
                if (!ToolScopes.valid(glob)) {
                    throw new IllegalArgumentException("a tool pattern is a name, or a prefix and a trailing *, got " + glob);
                }
                toolScopes.put(glob, Set.copyOf(scopes));
            });
            return this;
        }

        /** The skew allowed on exp and nbf; default 60 s, at most {@link #MAX_CLOCK_SKEW}. */
        public Builder clockSkew(Duration skew) {
            if (skew.isNegative() || skew.compareTo(MAX_CLOCK_SKEW) > 0) {
                throw new IllegalArgumentException("clockSkew must be between 0 and 5 minutes, got " + skew);
            }
            this.clockSkew = skew;
            return this;
        }

        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The client for metadata, JWKS and introspection; default: one of its own, no redirects. */
        public Builder httpClient(HttpClient client) {
            this.httpClient = Optional.of(Objects.requireNonNull(client, "client"));
            return this;
        }

        /**
         * How long a fetched JWK set is trusted; default 5 minutes (nimbus's default). A key the
         * issuer removes is refused at the latest this long after it was fetched.
         */
        public Builder jwksCacheLifetime(Duration lifetime) {
            if (lifetime.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("jwksCacheLifetime must be at least 1 s, got " + lifetime);
            }
            this.jwksCacheLifetime = lifetime;
            return this;
        }

        /**
         * The window in which at most two JWKS fetches happen (nimbus's rate limiter), whatever
         * unknown kids tokens name; default 30 s. A key rotated in is found on the first token
         * using it unless two fetches were already made in the window.
         */
        public Builder jwksRefetchInterval(Duration interval) {
            if (interval.isNegative()) {
                throw new IllegalArgumentException("jwksRefetchInterval must not be negative, got " + interval);
            }
            this.jwksRefetchInterval = interval;
            return this;
        }

        public ResourceServer build() {
            if (issuers.isEmpty() && apiKeys.isEmpty()) {
                throw new IllegalArgumentException("a resource server needs at least one issuer or API keys");
            }
            return new ResourceServer(this);
        }
    }
}
