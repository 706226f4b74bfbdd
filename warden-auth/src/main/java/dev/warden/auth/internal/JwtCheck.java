package dev.warden.auth.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Date;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Verifies one issuer's JWT access tokens with nimbus: signature by a key of the issuer's JWKS
 * under an algorithm of the allow-list, {@code typ} {@code at+jwt} (RFC 9068), {@code JWT} or
 * none, {@code iss} exactly the issuer, {@code sub} and {@code exp} present, {@code exp} and
 * {@code nbf} within the skew. The audience is the caller's to check (it depends on the resource
 * asked for). Built on the first token, since the JWKS location may need discovery.
 */
public final class JwtCheck {

    /** RFC 9068's type, its media-type form, the common {@code JWT}, and none. */
    private static final DefaultJOSEObjectTypeVerifier<SecurityContext> TYPES = new DefaultJOSEObjectTypeVerifier<>(
            new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), JOSEObjectType.JWT, null);

    private final URI issuer;
    private final Optional<URI> jwksUri;
    private final Discovery discovery;
    private final Set<JWSAlgorithm> algorithms;
    private final int skewSeconds;
    private final InstantSource clock;
    private final Http http;
    private final Duration jwksTtl;
    private final Duration refetchInterval;
    private volatile DefaultJWTProcessor<SecurityContext> processor;

    public JwtCheck(URI issuer, Optional<URI> jwksUri, Discovery discovery, Set<String> algorithms, Duration skew,
                    InstantSource clock, Http http, Duration jwksTtl, Duration refetchInterval) {
        this.issuer = issuer;
        this.jwksUri = jwksUri;
        this.discovery = discovery;
        this.algorithms = algorithms.stream().map(JWSAlgorithm::parse).collect(Collectors.toUnmodifiableSet());
        this.skewSeconds = (int) skew.toSeconds();
        this.clock = clock;
        this.http = http;
        this.jwksTtl = jwksTtl;
        this.refetchInterval = refetchInterval;
    }

    private static final String BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /**
     * Whether every part of a compact JWS is in the one spelling RFC 7515 section 2 allows:
     * base64url without padding, its unused trailing bits zero. A decoder that accepts the other
     * spellings makes many strings of one token, so whatever keys on the string (the verified
     * token cache, a revocation list, a log search) is sidestepped by one more {@code =}.
     */
    public static boolean canonical(String compact) {
        String[] parts = compact.split("\\.", -1);
        if (parts.length != 3) {
            return false;
        }
        for (String part : parts) {
            if (part.length() % 4 == 1) {
                return false;
            }
            for (int i = 0; i < part.length(); i++) {
                if (BASE64URL.indexOf(part.charAt(i)) < 0) {
                    return false;
                }
            }
            int unused = part.isEmpty() ? 0 : BASE64URL.indexOf(part.charAt(part.length() - 1))
                    & (part.length() % 4 == 2 ? 0x0F : part.length() % 4 == 3 ? 0x03 : 0);
            if (unused != 0) {
                return false;
            }
        }
        return true;
    }

    /** The verified claims, or an exception whose message is for the operator. */
    public JWTClaimsSet verify(SignedJWT jwt) throws BadJOSEException, JOSEException, IOException {
        return processor().process(jwt, null);
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws IOException {
        DefaultJWTProcessor<SecurityContext> p = processor;
        if (p != null) {
            return p;
        }
        synchronized (this) {
            if (processor == null) {
                URI keys = jwksUri.isPresent() ? jwksUri.get() : discovery.metadata().jwksUri()
                        .orElseThrow(() -> new IOException("the metadata of " + issuer + " names no jwks_uri"));
                processor = build(keys);
            }
            return processor;
        }
    }

    private DefaultJWTProcessor<SecurityContext> build(URI keys) {
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSTypeVerifier(TYPES);
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms,
                new ClockedJwkSource(keys, http, jwksTtl, refetchInterval, clock)));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(null,
                new JWTClaimsSet.Builder().issuer(issuer.toString()).build(), Set.of("iss", "sub", "exp"), null) {
            @Override
            protected Date currentTime() {
                return new Date(clock.millis());
            }
        };
        claims.setMaxClockSkew(skewSeconds);
        p.setJWTClaimsSetVerifier(claims);
        return p;
    }
}
