package dev.warden.auth.internal;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.CachingJWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.jwk.source.RateLimitedJWKSetSource;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * An issuer's signing keys: nimbus's JWK set cache (lifetime {@code ttl}) over its rate limiter
 * (at most two fetches per {@code refetchInterval}) over the JWKS URL. It does what nimbus's
 * {@code JWKSetBasedJWKSource} does (look in the cached set; for a key it does not hold, refetch
 * once if the set has not changed meanwhile) but with the time from the injected clock, where
 * nimbus's own reads {@code System.currentTimeMillis()}: cache expiry and the rate limit follow
 * the resource server's clock.
 */
public final class ClockedJwkSource implements JWKSource<SecurityContext> {

    /** How long a refresh may wait for another thread's fetch of the same set. */
    private static final long REFRESH_TIMEOUT_MS = 5_000;

    private final JWKSetSource<SecurityContext> source;
    private final InstantSource clock;

    public ClockedJwkSource(URI jwksUri, Http http, Duration ttl, Duration refetchInterval, InstantSource clock) {
        JWKSetSource<SecurityContext> s;
        try {
            s = new URLBasedJWKSetSource<>(jwksUri.toURL(), http);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a URL: " + jwksUri, e);
        }
        s = new RateLimitedJWKSetSource<>(s, refetchInterval.toMillis(), null);
        this.source = new CachingJWKSetSource<>(s, ttl.toMillis(), REFRESH_TIMEOUT_MS, null);
        this.clock = clock;
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        long now = clock.millis();
        JWKSet set = source.getJWKSet(JWKSetCacheRefreshEvaluator.noRefresh(), now, context);
        List<JWK> found = selector.select(set);
        if (found.isEmpty()) {
            // An unknown kid: the issuer may have rotated its keys. The rate limiter below bounds
            // what a stream of made-up kids can cost the authorization server.
            JWKSet fresh;
            try {
                fresh = source.getJWKSet(JWKSetCacheRefreshEvaluator.referenceComparison(set), now, context);
            } catch (RateLimitReachedException e) {
                // nimbus's exception has no message: the operator's reason would read "null"
                throw new KeySourceException("no matching key in the JWK set, refetched too recently to look again",
                        e);
            }
            found = selector.select(fresh);
        }
        return found;
    }
}
