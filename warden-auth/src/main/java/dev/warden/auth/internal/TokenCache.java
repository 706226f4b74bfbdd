package dev.warden.auth.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers about tokens (introspection's, and verified JWTs') by the SHA-256 of the token and the
 * resource (the token itself is never a key), each until its own deadline. Bounded: when full, expired answers go, and if that is not enough all go (a
 * flood of junk tokens costs the authorization server one introspection each, as without a cache,
 * and cannot grow memory).
 */
public final class TokenCache {

    static final int MAX_ENTRIES = 10_000;

    private record Entry(Checked checked, long untilMillis) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    public static String key(String token, String resource) {
        return sha256Hex(token) + " " + resource;
    }

    public static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    public Optional<Checked> get(String key, long nowMillis) {
        Entry e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (nowMillis >= e.untilMillis()) {
            entries.remove(key, e);
            return Optional.empty();
        }
        return Optional.of(e.checked());
    }

    public void put(String key, Checked checked, long untilMillis, long nowMillis) {
        if (untilMillis <= nowMillis) {
            return;
        }
        if (entries.size() >= MAX_ENTRIES) {
            entries.values().removeIf(e -> nowMillis >= e.untilMillis());
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(key, new Entry(checked, untilMillis));
    }
}
