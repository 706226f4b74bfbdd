package dev.warden.core.identity;

import java.util.Objects;
import java.util.Optional;

/**
 * What a request presented to prove who it is: its {@code Authorization} header and its
 * {@code X-API-Key} header, as sent (a transport reads them; an {@link Authenticator} judges them).
 */
public record Credentials(Optional<String> authorization, Optional<String> apiKey) {

    public Credentials {
        Objects.requireNonNull(authorization, "authorization");
        Objects.requireNonNull(apiKey, "apiKey");
    }

    public static Credentials none() {
        return new Credentials(Optional.empty(), Optional.empty());
    }

    public boolean isEmpty() {
        return authorization.isEmpty() && apiKey.isEmpty();
    }
}
