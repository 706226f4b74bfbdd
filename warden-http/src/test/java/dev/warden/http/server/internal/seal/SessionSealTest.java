package dev.warden.http.server.internal.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The session seal: what it opens, and everything it refuses, each with its reason and no stack. */
class SessionSealTest {

    private static final SealKey K1 = new SealKey("k1", bytes(1));
    private static final SealKey K2 = new SealKey("k2", bytes(2));
    private static final byte[] STATE = "{\"init\":{\"protocolVersion\":\"2025-11-25\"}}".getBytes(StandardCharsets.UTF_8);

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final InstantSource clock = now::get;

    private SessionSeal seal(List<SealKey> ring) {
        return new SessionSeal("mcp-session", ring, Duration.ofHours(24), clock);
    }

    private static byte[] bytes(int fill) {
        byte[] b = new byte[32];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }

    private static SessionSeal.Reason refusal(SessionSeal seal, String sealed) {
        try {
            seal.open(sealed);
            throw new AssertionError("opened: " + sealed);
        } catch (SessionSeal.Rejected e) {
            assertThat(e.getStackTrace()).isEmpty();
            assertThat(e.getMessage()).startsWith("session seal: ");
            if (!sealed.isEmpty()) {
                assertThat(e.getMessage()).doesNotContain(sealed);
            }
            return e.reason();
        }
    }

    @Test
    void anotherReplicaWithTheSameKeysOpensWhatOneSealed() throws Exception {
        String sealed = seal(List.of(K1)).seal(STATE).orElseThrow();

        assertThat(seal(List.of(K1)).open(sealed).value()).isEqualTo(STATE);
    }

    @Test
    void theSealedStringIsAVersionedHeaderValueThatHidesTheState() {
        String sealed = seal(List.of(K1)).seal(STATE).orElseThrow();

        assertThat(sealed).startsWith("ws1.k1.").matches("[A-Za-z0-9_.-]+").doesNotContain("protocolVersion");
        assertThat(new String(Base64.getUrlDecoder().decode(sealed.substring(7)), StandardCharsets.ISO_8859_1))
                .doesNotContain("2025-11-25");
    }

    @Test
    void twoSealsOfTheSameStateDiffer() {
        SessionSeal seal = seal(List.of(K1));

        assertThat(seal.seal(STATE).orElseThrow()).isNotEqualTo(seal.seal(STATE).orElseThrow());
    }

    @Test
    void afterARotationWhatTheOldKeySealedStillOpens() throws Exception {
        String old = seal(List.of(K1)).seal(STATE).orElseThrow();
        SessionSeal rotated = seal(List.of(K2, K1));

        assertThat(rotated.open(old).value()).isEqualTo(STATE);
        assertThat(rotated.seal(STATE).orElseThrow()).startsWith("ws1.k2.");
    }

    @Test
    void aKeyThisReplicaDoesNotHoldIsRefused() {
        String sealed = seal(List.of(K2)).seal(STATE).orElseThrow();

        assertThat(refusal(seal(List.of(K1)), sealed)).isEqualTo(SessionSeal.Reason.UNKNOWN_KEY);
    }

    @Test
    void theSameKeyIdWithAnotherSecretIsRefusedAsForged() {
        String sealed = seal(List.of(new SealKey("k1", bytes(9)))).seal(STATE).orElseThrow();

        assertThat(refusal(seal(List.of(K1)), sealed)).isEqualTo(SessionSeal.Reason.FORGED);
    }

    @Test
    void everyAlteredCharacterOfTheBodyIsRefusedAsForged() {
        SessionSeal seal = seal(List.of(K1));
        String sealed = seal.seal(STATE).orElseThrow();
        for (int i = "ws1.k1.".length(); i < sealed.length() - 1; i++) {
            char c = sealed.charAt(i);
            String altered = sealed.substring(0, i) + (c == 'A' ? 'B' : 'A') + sealed.substring(i + 1);
            assertThat(refusal(seal, altered)).as("position %d", i).isEqualTo(SessionSeal.Reason.FORGED);
        }
    }

    @Test
    void aSealedValueOpensInItsOneCanonicalSpellingOnly() throws Exception {
        SessionSeal seal = seal(List.of(K1));
        String sealed = seal.seal(STATE).orElseThrow();
        int bytes = Base64.getUrlDecoder().decode(sealed.substring("ws1.k1.".length())).length;
        int unused = bytes % 3 == 1 ? 0xF : 0x3; // the low bits of the last character that carry nothing
        String padding = bytes % 3 == 1 ? "==" : "=";
        String head = sealed.substring(0, sealed.length() - 1);
        int canonical = ALPHABET.indexOf(sealed.charAt(sealed.length() - 1));
        List<String> others = new java.util.ArrayList<>();
        for (int low = 0; low <= unused; low++) {
            String spelling = head + ALPHABET.charAt(canonical & ~unused | low); // the same bytes to a lenient decoder
            others.add(spelling + padding);
            if (!spelling.equals(sealed)) {
                others.add(spelling);
            }
        }

        assertThat(seal.open(sealed).value()).isEqualTo(STATE);
        assertThat(others).hasSize(2 * (unused + 1) - 1).allSatisfy(other ->
                assertThat(refusal(seal, other)).as(other).isEqualTo(SessionSeal.Reason.MALFORMED));
    }

    @Test
    void aValueSealedForAnotherPurposeDoesNotOpen() {
        String parked = new SessionSeal("parked-call", List.of(K1), Duration.ofHours(1), clock).seal(STATE).orElseThrow();

        assertThat(refusal(seal(List.of(K1)), parked)).isEqualTo(SessionSeal.Reason.FORGED);
    }

    @Test
    void aValueOlderThanTheMaximumAgeIsRefused() throws Exception {
        SessionSeal seal = seal(List.of(K1));
        String sealed = seal.seal(STATE).orElseThrow();
        now.set(now.get().plus(Duration.ofHours(24)));
        assertThat(seal.open(sealed).value()).isEqualTo(STATE);
        assertThat(seal.open(sealed).notAfterMillis()).as("the last instant it opens").isEqualTo(now.get().toEpochMilli());

        now.set(now.get().plusMillis(1));

        assertThat(refusal(seal, sealed)).isEqualTo(SessionSeal.Reason.EXPIRED);
    }

    @Test
    void plainIdsGarbageAndTruncationsAreRefusedAsMalformed() {
        SessionSeal seal = seal(List.of(K1));
        String sealed = seal.seal(STATE).orElseThrow();

        assertThat(refusal(seal, "Xq3v9c2lY0cR0m2kq1Z8rQ3lP0n5sV2b")).isEqualTo(SessionSeal.Reason.MALFORMED);
        assertThat(refusal(seal, "ws2.k1." + sealed.substring(7))).isEqualTo(SessionSeal.Reason.MALFORMED);
        assertThat(refusal(seal, "ws1.k1.not*base64")).isEqualTo(SessionSeal.Reason.MALFORMED);
        assertThat(refusal(seal, "ws1.k1.AAAA")).isEqualTo(SessionSeal.Reason.MALFORMED);
        assertThat(refusal(seal, "")).isEqualTo(SessionSeal.Reason.MALFORMED);
        // Cut to whole 4-character groups (a canonical spelling of fewer bytes): it decodes, and does not authenticate.
        int whole = "ws1.k1.".length() + (sealed.length() - "ws1.k1.".length()) / 4 * 4 - 4;
        assertThat(refusal(seal, sealed.substring(0, whole))).isEqualTo(SessionSeal.Reason.FORGED);
    }

    @Test
    void aStringLongerThanAnySealedValueIsRefusedBeforeItIsDecoded() {
        String huge = "ws1.k1." + "A".repeat(SessionSeal.MAX_SEALED_CHARS);

        assertThat(refusal(seal(List.of(K1)), huge)).isEqualTo(SessionSeal.Reason.TOO_LARGE);
    }

    @Test
    void theLargestValueSealsWithinTheBoundAndALargerOneIsNotSealed() throws Exception {
        SessionSeal seal = seal(List.of(new SealKey("a-sixteen-char-k", bytes(3))));
        byte[] largest = new byte[SessionSeal.MAX_VALUE_BYTES];

        String sealed = seal.seal(largest).orElseThrow();

        assertThat(sealed.length()).isLessThanOrEqualTo(SessionSeal.MAX_SEALED_CHARS);
        assertThat(seal.open(sealed).value()).isEqualTo(largest);
        assertThat(seal.seal(new byte[SessionSeal.MAX_VALUE_BYTES + 1])).isEmpty();
    }

    @Test
    void keysNeverPrintTheirSecrets() {
        assertThat(K1.toString()).isEqualTo("SealKey[k1]");
        assertThat(seal(List.of(K1, K2)).toString()).isEqualTo("SessionSeal[k1, k2]");
    }

    @Test
    void aKeyOfTheWrongLengthOrWithAnOddIdIsRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> new SealKey("k1", new byte[16])).hasMessageContaining("must be 32 bytes, got 16");
        assertThatThrownBy(() -> new SealKey("k 1", bytes(1))).hasMessageContaining("session key id");
    }
}
