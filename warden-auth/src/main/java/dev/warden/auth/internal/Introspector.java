package dev.warden.auth.internal;

import dev.warden.core.identity.Caller;
import dev.warden.core.identity.PresentedToken;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Opaque access tokens, asked about at each issuer that introspects (RFC 7662), in the order
 * configured, with client_secret_basic. An active answer is cached until the token's {@code exp}
 * and at most {@link #MAX_ACTIVE}, so a token revoked meanwhile is honoured within that time; an
 * inactive one for {@link #INACTIVE} (it will not become active again, and a client retrying a
 * dead token, or junk, should not cost a round trip each time; kept short only to bound memory
 * held for garbage). An endpoint that fails is not cached: the next request asks again.
 */
public final class Introspector {

    static final Duration MAX_ACTIVE = Duration.ofMinutes(5);
    static final Duration INACTIVE = Duration.ofSeconds(30);

    /** One issuer that introspects; {@code endpoint} empty means its discovered one. */
    public record Target(URI issuer, Optional<URI> endpoint, String clientId, String clientSecret,
                         Discovery discovery, Set<String> audiences) {
    }

    private final List<Target> targets;
    private final Set<String> issuers;
    private final Http http;
    private final InstantSource clock;
    private final long skewMillis;
    private final TokenCache cache = new TokenCache();

    public Introspector(List<Target> targets, Set<String> issuers, Http http, InstantSource clock, Duration skew) {
        this.targets = List.copyOf(targets);
        this.issuers = Set.copyOf(issuers);
        this.http = http;
        this.clock = clock;
        this.skewMillis = skew.toMillis();
    }

    public boolean enabled() {
        return !targets.isEmpty();
    }

    public Checked check(String token, URI resource) {
        long now = clock.millis();
        String key = TokenCache.key(token, resource.toString());
        Optional<Checked> cached = cache.get(key, now);
        if (cached.isPresent()) {
            return withToken(cached.get(), token);
        }
        StringBuilder failures = new StringBuilder();
        for (Target t : targets) {
            Map<String, Object> answer;
            try {
                answer = ask(t, token);
            } catch (IOException e) {
                failures.append(failures.isEmpty() ? "" : "; ").append(e.getMessage());
                continue;
            }
            if (!Boolean.TRUE.equals(answer.get("active"))) {
                continue;
            }
            Checked judged = judge(answer, t, resource, now);
            long until = now + MAX_ACTIVE.toMillis();
            if (answer.get("exp") instanceof Number exp) {
                until = Math.min(until, exp.longValue() * 1000);
            }
            cache.put(key, judged, until, now);
            return withToken(judged, token);
        }
        if (!failures.isEmpty()) {
            return new Checked.Bad("introspection unavailable, the token could not be checked: " + failures);
        }
        Checked inactive = new Checked.Bad("introspection: the token is not active");
        cache.put(key, inactive, now + INACTIVE.toMillis(), now);
        return inactive;
    }

    private Checked judge(Map<String, Object> answer, Target t, URI resource, long now) {
        if (answer.get("exp") instanceof Number exp && exp.longValue() * 1000 + skewMillis < now) {
            return new Checked.Bad("introspection: the token expired");
        }
        // The issuer that answered vouches for its own tokens only: an answer naming another issuer
        // would let one authorization server speak for another's users.
        Object iss = answer.get("iss");
        if (iss != null && !t.issuer().toString().equals(String.valueOf(iss))) {
            return new Checked.Bad("introspection at " + t.issuer() + ": the answer names another issuer");
        }
        // RFC 8707: the token must be for this resource; an answer that does not say whom it is for
        // could be a token another resource server was given.
        Object aud = answer.get("aud");
        Set<String> accepted = t.audiences().isEmpty() ? Set.of(resource.toString()) : t.audiences();
        if (aud == null) {
            return new Checked.Bad("introspection at " + t.issuer() + ": the answer names no audience (aud)");
        }
        if (!Claims.audienceMatches(aud, accepted)) {
            return new Checked.Bad("introspection at " + t.issuer() + ": the token is for another audience than " + accepted);
        }
        String subject = answer.get("sub") instanceof String s && !s.isEmpty() ? s
                : answer.get("username") instanceof String u && !u.isEmpty() ? u : null;
        if (subject == null) {
            return new Checked.Bad("introspection at " + t.issuer() + ": the answer names no sub or username");
        }
        return new Checked.Ok(Claims.caller(answer, subject, t.issuer().toString(), Caller.Kind.INTROSPECTED,
                Optional.empty()));
    }

    private static Checked withToken(Checked c, String token) {
        if (c instanceof Checked.Ok ok) {
            Caller x = ok.caller();
            return new Checked.Ok(new Caller(x.subject(), x.clientId(), x.issuer(), x.scopes(), x.claims(), x.kind(),
                    Optional.of(new PresentedToken(token))));
        }
        return c;
    }

    private Map<String, Object> ask(Target t, String token) throws IOException {
        URI endpoint = t.endpoint().isPresent() ? t.endpoint().get() : t.discovery().metadata().introspectionEndpoint()
                .orElseThrow(() -> new IOException("the metadata of " + t.issuer() + " names no introspection_endpoint"));
        // RFC 6749 section 2.3.1: client_secret_basic form-encodes the id and the secret first.
        String basic = Base64.getEncoder().encodeToString((form(t.clientId()) + ":" + form(t.clientSecret()))
                .getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofString("token=" + form(token) + "&token_type_hint=access_token"));
        Http.Answer a = http.send(request);
        if (a.status() != 200) {
            throw new IOException("introspection at " + endpoint + " answered " + a.status());
        }
        return Http.object(a.body(), endpoint);
    }

    private static String form(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
