package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.PermissionDeniedFailure;
import dev.warden.server.auth.CredentialVerifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CredentialVerifierTest {

    private static final int ITERATIONS = 1_000;
    private final Map<String, String> accounts = Map.of("ada", CredentialVerifier.hash("s3cret".toCharArray(), ITERATIONS));
    private final CredentialVerifier verifier = CredentialVerifier.of(name -> Optional.ofNullable(accounts.get(name)),
            ITERATIONS);

    @Test
    void theRightPasswordIsAccepted() {
        assertThat(verifier.verify("ada", "s3cret".toCharArray())).isTrue();
    }

    @Test
    void bothFailuresThrowTheSameMessage() {
        assertThatThrownBy(() -> verifier.check("ada", "wrong".toCharArray()))
                .isInstanceOf(PermissionDeniedFailure.class).hasMessage(CredentialVerifier.FAILURE_MESSAGE);
        assertThatThrownBy(() -> verifier.check("nobody", "s3cret".toCharArray()))
                .isInstanceOf(PermissionDeniedFailure.class).hasMessage(CredentialVerifier.FAILURE_MESSAGE);
    }

    @Test
    void anUnknownAccountStillCostsAFullHashComparison() {
        AtomicInteger lookups = new AtomicInteger();
        CredentialVerifier counting = CredentialVerifier.of(name -> {
            lookups.incrementAndGet();
            return Optional.empty();
        }, ITERATIONS);
        assertThat(counting.verify("ghost", "x".toCharArray())).isFalse();
        assertThat(lookups.get()).isEqualTo(1);
    }

    @Test
    void unknownAccountAndWrongPasswordProduceByteIdenticalResponses() throws Exception {
        McpServer server = McpServer.builder("auth", "1").incidents(i -> { })
                .tool(ToolSpec.builder("login").handler(call -> {
                    verifier.check(call.string("user").orElse(""), call.string("password").orElse("").toCharArray());
                    return ToolResult.text("welcome");
                }).build()).build();
        try (TestClient client = TestClient.initialized(server)) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"login\","
                    + "\"arguments\":{\"user\":\"nobody\",\"password\":\"s3cret\"}}}");
            String unknownAccount = client.next().toString();
            client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"login\","
                    + "\"arguments\":{\"user\":\"ada\",\"password\":\"wrong\"}}}");
            String wrongPassword = client.next().toString();
            // The ref is random per failure by design; everything else must match byte for byte.
            assertThat(maskRefs(unknownAccount)).isEqualTo(maskRefs(wrongPassword));
            assertThat(unknownAccount).contains("PERMISSION_DENIED");
        }
    }

    private static String maskRefs(String text) {
        StringBuilder out = new StringBuilder(text);
        int at;
        while ((at = out.indexOf("ref_")) >= 0) {
            out.replace(at, at + 20, "REF_MASKED__________");
        }
        return out.toString();
    }
}
