package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code requestState} of input-required results (2026-07-28 MRTR): the answers gathered so
 * far, carried by the client between rounds (the server keeps nothing), bound to the tool, dated,
 * and signed with HMAC-SHA256 so a client cannot forge or alter an answer. Verification is
 * constant-time; a state that fails it, belongs to another tool or is over an hour old is refused.
 */
public final class RequestStates {

    private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();
    static final long MAX_AGE_SECONDS = 3600;

    private final byte[] key;
    private final Clock clock;

    public RequestStates(byte[] key, Clock clock) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the requestState key must have at least 32 bytes, got " + key.length);
        }
        this.key = key.clone();
        this.clock = clock;
    }

    public String sign(String tool, ObjectNode answers) {
        ObjectNode payload = Json.object();
        payload.put("t", tool);
        payload.put("iat", clock.instant().getEpochSecond());
        payload.set("a", answers);
        String body = ENCODE.encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
        return body + "." + ENCODE.encodeToString(mac(tool, body));
    }

    /** The answers a valid state carries. */
    public ObjectNode verify(String tool, String state) {
        int dot = state.indexOf('.');
        if (dot <= 0 || state.length() > 1_000_000) {
            throw refused();
        }
        String body = state.substring(0, dot);
        byte[] given;
        try {
            given = DECODE.decode(state.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw refused();
        }
        if (!MessageDigest.isEqual(given, mac(tool, body))) {
            throw refused();
        }
        JsonNode payload;
        try {
            payload = Json.mapper().readTree(new String(DECODE.decode(body), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw refused();
        }
        long age = clock.instant().getEpochSecond() - payload.path("iat").asLong(0);
        if (!tool.equals(payload.path("t").asString("")) || age < 0 || age > MAX_AGE_SECONDS
                || !(payload.get("a") instanceof ObjectNode answers)) {
            throw refused();
        }
        return answers;
    }

    private byte[] mac(String tool, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(("warden-request-state-v1|" + tool + "|").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    private static ProtocolException refused() {
        return ProtocolException.invalidParams("Invalid params: requestState was not issued by this server for "
                + "this tool, was altered, or has expired");
    }
}
