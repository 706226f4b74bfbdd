package dev.warden.client.auth;

import dev.warden.client.http.HttpAuthorization;
import dev.warden.core.transport.UnauthorizedException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * RFC 8693 token exchange, for a gateway that calls an upstream on behalf of its caller: the
 * caller's own token (the subject token) is exchanged at the authorization server for one issued
 * to the upstream ({@code resource}, {@code audience}, {@code scope}), so the upstream learns who
 * is calling from a token meant for it, and the caller's token itself never reaches the upstream
 * (the MCP authorization spec forbids passing it through). The gateway authenticates at the token
 * endpoint as a confidential client ({@code client_secret_basic}).
 *
 * <p>One {@code TokenExchange} per upstream holds the settings; {@link #onBehalfOf} binds it to
 * one caller's connection. Exchanged tokens are kept until they are about to expire or the
 * caller's token changes; a 401 from the upstream exchanges again once.
 */
public final class TokenExchange {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";

    private final URI tokenEndpoint;
    private final String clientId;
    private final String clientSecret;
    private final Optional<URI> resource;
    private final Optional<String> audience;
    private final Set<String> scopes;
    private final AuthHttp http;
    private final Clock clock;

    private TokenExchange(Builder b) {
        this.tokenEndpoint = b.tokenEndpoint;
        this.clientId = b.clientId;
        this.clientSecret = b.clientSecret;
        this.resource = b.resource;
        this.audience = b.audience;
        this.scopes = Set.copyOf(b.scopes);
        this.http = b.http;
        this.clock = b.clock;
    }

    /** @param tokenEndpoint the authorization server's token endpoint (HTTPS, or loopback) */
    public static Builder builder(URI tokenEndpoint, String clientId, String clientSecret) {
        return new Builder(tokenEndpoint, clientId, clientSecret);
    }

    /**
     * The upstream's credentials for one caller: {@code subjectToken} reads the caller's current
     * token (it changes when the caller refreshes or steps up); with none, nothing is sent.
     */
    public HttpAuthorization onBehalfOf(Supplier<Optional<String>> subjectToken) {
        return new Bound(Objects.requireNonNull(subjectToken, "subjectToken"));
    }

    /** The upstream's token for {@code subjectToken}, fresh from the token endpoint. */
    TokenSet exchange(String subjectToken) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", GRANT);
        form.put("subject_token", subjectToken);
        form.put("subject_token_type", ACCESS_TOKEN);
        form.put("requested_token_type", ACCESS_TOKEN);
        resource.ifPresent(r -> form.put("resource", r.toString()));
        audience.ifPresent(a -> form.put("audience", a));
        if (!scopes.isEmpty()) {
            form.put("scope", String.join(" ", scopes));
        }
        String basic = "Basic " + Base64.getEncoder().encodeToString((AuthHttp.encode(clientId) + ":"
                + AuthHttp.encode(clientSecret)).getBytes(StandardCharsets.UTF_8));
        return TokenSet.issued(http.postForm(tokenEndpoint, form, Optional.of(basic)), scopes, Optional.empty(),
                clock.instant());
    }

    /** The exchange for one caller: its token, and what it was exchanged for. */
    private final class Bound implements HttpAuthorization {
        private final Supplier<Optional<String>> subjectToken;
        private final ReentrantLock lock = new ReentrantLock();
        private Optional<String> exchangedFor = Optional.empty();
        private Optional<TokenSet> held = Optional.empty();
        /** The next exchange answers a refusal: the upstream refusing its token too is final. */
        private boolean retrying;
        /** The header an exchange after a refusal produced. */
        private Optional<String> retried = Optional.empty();

        Bound(Supplier<Optional<String>> subjectToken) {
            this.subjectToken = subjectToken;
        }

        @Override
        public Optional<String> header() {
            Optional<String> subject = subjectToken.get();
            if (subject.isEmpty()) {
                return Optional.empty();
            }
            lock.lock();
            try {
                if (held.isEmpty() || !exchangedFor.equals(subject) || held.get().stale(clock.instant())) {
                    held = Optional.of(exchange(subject.get()));
                    exchangedFor = subject;
                    retried = retrying ? Optional.of(held.get().header()) : Optional.empty();
                    retrying = false;
                }
                return Optional.of(held.get().header());
            } catch (AuthorizationStepException e) {
                throw new UnauthorizedException("the token exchange for the upstream failed: " + e.getMessage(), e);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void refused(URI endpoint, Optional<String> sent, int status, List<String> challenges) {
            lock.lock();
            try {
                if (sent.isEmpty()) {
                    throw new UnauthorizedException("the upstream needs credentials and the caller has no token "
                            + "to exchange", null);
                }
                if (held.isPresent() && !sent.get().equals(held.get().header())) {
                    return; // another request exchanged meanwhile: retry with that token
                }
                if (retried.equals(sent)) {
                    throw new UnauthorizedException("the upstream refused a freshly exchanged token (status "
                            + status + ")", null);
                }
                held = Optional.empty(); // exchanged again on the retry
                retrying = true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            return "TokenExchange[" + tokenEndpoint + "]";
        }
    }

    public static final class Builder {
        private final URI tokenEndpoint;
        private final String clientId;
        private final String clientSecret;
        private Optional<URI> resource = Optional.empty();
        private Optional<String> audience = Optional.empty();
        private final Set<String> scopes = new LinkedHashSet<>();
        private final AuthHttp http = AuthHttp.ofDefaults();
        private Clock clock = Clock.systemUTC();

        private Builder(URI tokenEndpoint, String clientId, String clientSecret) {
            if (tokenEndpoint == null || !Endpoints.secure(tokenEndpoint)) {
                throw new IllegalArgumentException("tokenEndpoint must be an HTTPS or loopback URL, got "
                        + tokenEndpoint);
            }
            if (clientId == null || clientId.isEmpty() || clientSecret == null || clientSecret.isEmpty()) {
                throw new IllegalArgumentException("a token exchange needs the gateway's client id and secret");
            }
            this.tokenEndpoint = tokenEndpoint;
            this.clientId = clientId;
            this.clientSecret = clientSecret;
        }

        /** The upstream's resource URI (RFC 8707), which the exchanged token is issued for. */
        public Builder resource(URI resource) {
            this.resource = Optional.of(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        /** The upstream's logical name, when the authorization server knows it by one (RFC 8693 {@code audience}). */
        public Builder audience(String audience) {
            if (audience == null || audience.isEmpty()) {
                throw new IllegalArgumentException("audience must not be empty");
            }
            this.audience = Optional.of(audience);
            return this;
        }

        public Builder scopes(Set<String> scopes) {
            this.scopes.clear();
            this.scopes.addAll(scopes);
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public TokenExchange build() {
            if (resource.isEmpty() && audience.isEmpty()) {
                throw new IllegalArgumentException("a token exchange needs the upstream's resource or audience");
            }
            return new TokenExchange(this);
        }
    }
}
