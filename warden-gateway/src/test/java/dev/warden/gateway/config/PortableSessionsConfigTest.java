package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code http.sessions.portable}: where the session keys are, and how long a sealed id lives. */
class PortableSessionsConfigTest {

    private static GatewayConfig.Http.Sessions sessions(String section) {
        return GatewayConfig.parse("http: { port: 8080, sessions: " + section + " }\nupstreams: { a: { command: x } }",
                Map.<String, String>of()::get).http().orElseThrow().sessions();
    }

    @Test
    void theKeyFileAndMaximumAgeAreRead() {
        GatewayConfig.Http.Sessions s = sessions("{ portable: { keyFile: /etc/warden/session-keys, maxAge: 12h } }");

        assertThat(s.portable()).contains(new GatewayConfig.Http.Sessions.Portable(
                Path.of("/etc/warden/session-keys"), Duration.ofHours(12)));
    }

    @Test
    void theMaximumAgeIsADayUnlessSaid() {
        assertThat(sessions("{ portable: { keyFile: /k } }").portable().orElseThrow().maxAge())
                .isEqualTo(Duration.ofHours(24));
    }

    @Test
    void withoutTheKeySessionsStayWhereTheyWereOpened() {
        assertThat(sessions("{ max: 5 }").portable()).isEmpty();
    }

    @Test
    void aMissingKeyFileOrAWrongValueNamesItsKey() {
        assertThatThrownBy(() -> sessions("{ portable: {} }")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("http.sessions.portable.keyFile: required");
        assertThatThrownBy(() -> sessions("{ portable: yes }")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("http.sessions.portable: expected a mapping");
        assertThatThrownBy(() -> sessions("{ portable: { keyFile: /k, maxAge: 0s } }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("http.sessions.portable.maxAge");
        assertThatThrownBy(() -> sessions("{ portable: { keyFile: /k, secret: abc } }"))
                .isInstanceOf(ConfigException.class).hasMessage(
                        "unknown key http.sessions.portable.secret; expected one of keyFile, maxAge");
    }
}
