package dev.warden.gateway.internal.parked;

import java.security.SecureRandom;
import java.util.Base64;

/** Unguessable tokens: whoever holds one may resume what it names. */
public final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** 24 random bytes, base64url without padding. */
    public static String random() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
