package dev.warden.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Keys for another use than sealing, derived from the session keys: one per key, the current first, never the secret itself. */
class SessionKeysDerivedTest {

    private static final byte[] CURRENT = new byte[32];
    private static final byte[] OLDER = new byte[32];

    static {
        Arrays.fill(CURRENT, (byte) 1);
        Arrays.fill(OLDER, (byte) 2);
    }

    private static byte[] hmac(byte[] key, String label) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachKeyGivesItsHmacOfTheLabelTheCurrentFirst() throws Exception {
        SessionKeys ring = SessionKeys.of("k2", CURRENT).withOlder("k1", OLDER);

        assertThat(ring.derived("warden replica bus v1"))
                .containsExactly(hmac(CURRENT, "warden replica bus v1"), hmac(OLDER, "warden replica bus v1"));
    }

    @Test
    void anotherLabelGivesOtherKeys() {
        SessionKeys ring = SessionKeys.of("k1", CURRENT);

        assertThat(ring.derived("a").get(0)).isNotEqualTo(ring.derived("b").get(0)).isNotEqualTo(CURRENT);
    }
}
