package dev.warden.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The signed requestState of input-required results. */
class RequestStatesTest {

    private static final byte[] KEY = new byte[32];
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private final RequestStates states = new RequestStates(KEY, Clock.fixed(NOW, ZoneOffset.UTC));

    private static ObjectNode answers() {
        ObjectNode answers = Json.object();
        answers.putObject("user_name").put("action", "accept");
        return answers;
    }

    @Test
    void aStateItIssuedComesBackWithItsAnswers() {
        String state = states.sign("greet", answers());
        assertThat(states.verify("greet", state).at("/user_name/action").asString()).isEqualTo("accept");
    }

    @Test
    void anAlteredStateIsRefused() {
        String state = states.sign("greet", answers());
        char[] chars = state.toCharArray();
        chars[3] = chars[3] == 'A' ? 'B' : 'A';
        assertThatThrownBy(() -> states.verify("greet", new String(chars))).isInstanceOf(ProtocolException.class);
    }

    @Test
    void aStateForAnotherToolIsRefused() {
        String state = states.sign("greet", answers());
        assertThatThrownBy(() -> states.verify("delete_everything", state)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void aStateSignedWithAnotherKeyIsRefused() {
        byte[] other = Arrays.copyOf(KEY, 32);
        other[0] = 1;
        String forged = new RequestStates(other, Clock.fixed(NOW, ZoneOffset.UTC)).sign("greet", answers());
        assertThatThrownBy(() -> states.verify("greet", forged)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void anExpiredStateIsRefused() {
        String state = new RequestStates(KEY, Clock.fixed(NOW.minus(Duration.ofHours(2)), ZoneOffset.UTC))
                .sign("greet", answers());
        assertThatThrownBy(() -> states.verify("greet", state)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void garbageIsRefusedWithoutEchoingIt() {
        assertThatThrownBy(() -> states.verify("greet", "<script>.x"))
                .isInstanceOf(ProtocolException.class).message().doesNotContain("script");
    }

    @Test
    void aShortKeyIsRefusedNamingItsLength() {
        assertThatThrownBy(() -> new RequestStates(new byte[8], Clock.systemUTC()))
                .hasMessageContaining("32").hasMessageContaining("8");
    }
}
