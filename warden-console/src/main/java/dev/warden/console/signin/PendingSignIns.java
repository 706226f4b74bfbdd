package dev.warden.console.signin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sign-ins sent to the authorization server and not yet back. Nothing of them is kept here: each
 * (its {@code state}, PKCE verifier, redirect URI, the console page to return to and when it
 * started) travels sealed in the {@link PendingCookie} of the browser that started it, with
 * AES-GCM under a random key made when the console starts (a restart ends every sign-in under
 * way). So a flood of anonymous page loads has no table to fill and can drop nobody's sign-in; the
 * callback trusts nothing the browser brings but what opens under the key, within
 * {@link #LIFETIME}, with the callback's own {@code state} (another browser's cookie holds another
 * state). The only thing remembered is the state of a sign-in that finished, until its lifetime
 * ends, so it is not taken twice; only a browser that signed in adds to it.
 */
public final class PendingSignIns {

    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** Finished sign-ins remembered at most (each needs a token with the console's scope); past it the oldest go. */
    static final int MAX_FINISHED = 1024;

    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte VERSION = 1;
    /** Bound to its purpose: the cookie's name is the associated data. */
    private static final byte[] PURPOSE = PendingCookie.NAME.getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One sign-in under way. */
    public record Pending(String state, String verifier, URI redirectUri, String returnTo, Instant started) {
        public Pending {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(verifier, "verifier");
            Objects.requireNonNull(redirectUri, "redirectUri");
            Objects.requireNonNull(returnTo, "returnTo");
            Objects.requireNonNull(started, "started");
        }

        @Override
        public String toString() {
            return "Pending[returnTo=" + returnTo + "]";
        }
    }

    private final Clock clock;
    private final SecretKey key;
    /** An IV is never used twice under the key: a random prefix, then a counter. */
    private final int ivPrefix;
    private final AtomicLong sealed = new AtomicLong();
    private final Map<String, Instant> finished = new LinkedHashMap<>(); // state → end of its lifetime, oldest first

    public PendingSignIns(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        this.key = new SecretKeySpec(bytes, "AES");
        this.ivPrefix = RANDOM.nextInt();
    }

    /** A sign-in starting now, sealed for the browser's {@link PendingCookie} (base64url). */
    public String seal(String state, String verifier, URI redirectUri, String returnTo) {
        Pending p = new Pending(state, verifier, redirectUri, returnTo, clock.instant());
        byte[] iv = ByteBuffer.allocate(IV_BYTES).putInt(ivPrefix).putLong(sealed.getAndIncrement()).array();
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(PURPOSE);
            byte[] box = cipher.doFinal(plain(p));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ByteBuffer.allocate(IV_BYTES + box.length).put(iv).put(box).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    /**
     * The sign-in a browser's cookie holds, when it opens under this console's key, is younger than
     * {@link #LIFETIME} and its state is the callback's {@code state} (compared in constant time), and
     * it has not finished already; empty otherwise, whatever the reason.
     */
    public Optional<Pending> open(String cookie, String state) {
        Optional<Pending> p = unseal(cookie);
        if (p.isEmpty() || !clock.instant().isBefore(p.get().started().plus(LIFETIME))
                || !MessageDigest.isEqual(p.get().state().getBytes(StandardCharsets.UTF_8),
                        state.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        synchronized (this) {
            Instant until = finished.get(p.get().state());
            return until != null && clock.instant().isBefore(until) ? Optional.empty() : p;
        }
    }

    /** The browser signed in with {@code p}: its cookie opens nothing any more. */
    public synchronized void finished(Pending p) {
        Instant now = clock.instant();
        finished.values().removeIf(until -> !now.isBefore(until));
        while (finished.size() >= MAX_FINISHED) {
            finished.remove(finished.keySet().iterator().next());
        }
        finished.put(p.state(), p.started().plus(LIFETIME));
    }

    private Optional<Pending> unseal(String cookie) {
        byte[] box;
        try {
            box = Base64.getUrlDecoder().decode(cookie);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (box.length <= IV_BYTES + TAG_BITS / 8) {
            return Optional.empty();
        }
        byte[] plain;
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, box, 0, IV_BYTES));
            cipher.updateAAD(PURPOSE);
            plain = cipher.doFinal(box, IV_BYTES, box.length - IV_BYTES);
        } catch (GeneralSecurityException e) {
            return Optional.empty(); // not sealed under this key, or changed since
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(plain))) {
            if (in.readByte() != VERSION) {
                return Optional.empty();
            }
            Instant started = Instant.ofEpochSecond(in.readLong(), in.readInt());
            Pending p = new Pending(in.readUTF(), in.readUTF(), URI.create(in.readUTF()), in.readUTF(), started);
            return in.available() == 0 ? Optional.of(p) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // sealed by us, so never; but a cookie is never trusted to parse
        }
    }

    private static byte[] plain(Pending p) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(p.started().getEpochSecond());
            out.writeInt(p.started().getNano());
            out.writeUTF(p.state());
            out.writeUTF(p.verifier());
            out.writeUTF(p.redirectUri().toString());
            out.writeUTF(p.returnTo());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
