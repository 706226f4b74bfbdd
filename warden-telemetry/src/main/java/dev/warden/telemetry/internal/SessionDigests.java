package dev.warden.telemetry.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code mcp.session.id} as a digest of the session's id, never the id: over HTTP the id is what a
 * client presents to use the session, so it stays out of telemetry backends. Client and server
 * digest the same id the same way, so their spans still meet on it.
 */
public final class SessionDigests {

    /** 16 hex digits: 64 bits of SHA-256. */
    public static final int LENGTH = 16;

    private SessionDigests() {
    }

    public static String of(String sessionId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, LENGTH / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    public static boolean isDigest(String value) {
        if (value.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
