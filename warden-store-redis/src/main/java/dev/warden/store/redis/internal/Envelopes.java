package dev.warden.store.redis.internal;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Messages on the bus as they travel, signed: anyone who can PUBLISH on the replicas' channels
 * (every local user of a Redis without a password) could otherwise make a replica run a tool as
 * anyone, or answer and cancel other clients' requests. Each envelope carries who sent it, to whom
 * ({@code *} for all), its topic, when, a nonce and its body, and an HMAC-SHA256 of all of them
 * with the first key; one signed with any key of the ring is accepted (a rotation adds the new key
 * everywhere before it signs). One older or newer than {@link #MAX_AGE}, or seen already within it,
 * is refused: an envelope overheard on the channel cannot be played again.
 */
public final class Envelopes {

    /** How far an envelope's time may be from this replica's: the replay window (clocks are NTP's). */
    public static final Duration MAX_AGE = Duration.ofSeconds(30);
    /** The recipient of a broadcast. */
    public static final String EVERYONE = "*";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final List<SecretKeySpec> keys;
    private final InstantSource clock;
    /** Signatures seen within the window, by their time, oldest first (as they arrived). */
    private final Map<String, Long> seen = new LinkedHashMap<>();

    /** {@code keys}: the first signs, every one verifies; each at least 32 bytes. */
    public Envelopes(List<byte[]> keys, InstantSource clock) {
        Objects.requireNonNull(keys, "keys");
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the replicas' bus needs at least one key");
        }
        List<SecretKeySpec> specs = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            if (key.length < 32) {
                throw new IllegalArgumentException("a key of the replicas' bus must have at least 32 bytes, not " + key.length);
            }
            specs.add(new SecretKeySpec(key, "HmacSHA256"));
        }
        this.keys = List.copyOf(specs);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** What a verified envelope says. */
    public record Message(String from, String to, String topic, String body) {
    }

    /** {@code body} from {@code from} to {@code to} (a replica's id, or {@link #EVERYONE}), signed now. */
    public String seal(String from, String to, String topic, String body) {
        long at = clock.millis();
        byte[] nonce = new byte[9];
        RANDOM.nextBytes(nonce);
        String n = Base64.getUrlEncoder().withoutPadding().encodeToString(nonce);
        ObjectNode message = Json.object();
        message.put("f", from);
        message.put("o", to);
        message.put("t", topic);
        message.put("a", at);
        message.put("n", n);
        message.put("b", body);
        message.put("s", Base64.getUrlEncoder().withoutPadding().encodeToString(mac(keys.get(0), from, to, topic, at, n, body)));
        return Json.write(message);
    }

    /** The message, if {@code text} is an envelope signed with one of the keys, within the window and not seen before. */
    public Optional<Message> open(String text) {
        JsonNode message;
        try {
            message = Json.mapper().readTree(text);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        String from = message.path("f").asString("");
        String to = message.path("o").asString("");
        String topic = message.path("t").asString("");
        String n = message.path("n").asString("");
        String body = message.path("b").asString("");
        String signature = message.path("s").asString("");
        if (from.isEmpty() || to.isEmpty() || topic.isEmpty() || n.isEmpty() || signature.isEmpty()
                || !message.path("a").isIntegralNumber() || !message.path("b").isString()) {
            return Optional.empty();
        }
        long at = message.path("a").asLong();
        long now = clock.millis();
        if (Math.abs(now - at) > MAX_AGE.toMillis()) {
            return Optional.empty();
        }
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        boolean signed = false;
        for (SecretKeySpec key : keys) {
            signed |= MessageDigest.isEqual(given, mac(key, from, to, topic, at, n, body));
        }
        if (!signed || !firstTime(signature, at, now)) {
            return Optional.empty();
        }
        return Optional.of(new Message(from, to, topic, body));
    }

    /** Whether this signature is new within the window; forgets those whose time left it. */
    private synchronized boolean firstTime(String signature, long at, long now) {
        for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
            if (it.next() >= now - MAX_AGE.toMillis()) {
                break; // later ones arrived later: near enough in time order to stop here
            }
            it.remove();
        }
        return seen.putIfAbsent(signature, at) == null;
    }

    /** Over every field, '|' between them: ids and topics are words and the time and nonce have no '|', so the body last is unambiguous. */
    private static byte[] mac(SecretKeySpec key, String from, String to, String topic, long at, String nonce, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal((from + "|" + to + "|" + topic + "|" + at + "|" + nonce + "|" + body)
                    .getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
