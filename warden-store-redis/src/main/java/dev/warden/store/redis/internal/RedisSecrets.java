package dev.warden.store.redis.internal;

import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The key that signs 2026-07-28 request states, the same on every replica: the first replica to
 * start writes a random one ({@code SET NX}, so two starting at once cannot each keep their own),
 * every replica reads the one that won, once, and keeps it in memory: signing and verifying never
 * ask Redis, and Redis going away later changes nothing. It has no expiry and is not rotated (the
 * signer, warden-server's RequestStates, holds one key; a state lives an hour at most, so a
 * rotation would need the old key kept for that hour: not done).
 */
public final class RedisSecrets {

    static final int KEY_BYTES = 32;

    private RedisSecrets() {
    }

    /** The shared key, made if there is none yet. Throws when Redis cannot be reached (at start). */
    public static byte[] requestStateKey(StatefulRedisConnection<String, String> connection, Keys keys) {
        byte[] mine = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(mine);
        var redis = connection.sync();
        redis.set(keys.requestStateKey(), Base64.getEncoder().encodeToString(mine), SetArgs.Builder.nx());
        String stored = redis.get(keys.requestStateKey());
        byte[] key;
        try {
            key = stored == null ? new byte[0] : Base64.getDecoder().decode(stored);
        } catch (IllegalArgumentException e) {
            key = new byte[0];
        }
        if (key.length < KEY_BYTES) {
            throw new IllegalStateException("the request-state key in Redis (" + keys.requestStateKey()
                    + ") is not " + KEY_BYTES + " bytes of base64; delete it and restart a replica to make a new one");
        }
        return key;
    }
}
