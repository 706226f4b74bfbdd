package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Upstream names whose prefixed tool and prompt names could be the same string are refused when
 * the configuration is read, naming both servers as the file names them: {@code a} and {@code b}
 * could collide iff {@code a + separator} is a prefix of {@code b + separator} (or the reverse).
 */
class UpstreamNamesConfigTest {

    private static GatewayConfig parse(String text) {
        return GatewayConfig.parse(text, Map.<String, String>of()::get);
    }

    @Test
    void aNameThatIsAnotherFollowedByAnUnderscoreIsRefusedNamingBoth() {
        assertThatThrownBy(() -> parse("upstreams: { h: { command: x }, h_: { command: y } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("upstreams.h ").hasMessageContaining("upstreams.h_ ")
                .hasMessageContaining("\"h___x\"");
    }

    @Test
    void withAnotherSeparatorANameContainingItAfterAnotherNameIsRefused() {
        assertThatThrownBy(() -> parse("namespacing: { separator: \"-\" }\nupstreams: { a: { command: x }, a-b: { command: y } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("upstreams.a ").hasMessageContaining("upstreams.a-b ");
    }

    @Test
    void twoServerNamesCleanedUpToTheSameNameAreRefusedNamingBoth() {
        assertThatThrownBy(() -> parse("{\"mcpServers\": {\"my server\": {\"command\": \"x\"}, \"my-server\": {\"command\": \"y\"}}}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mcpServers.my server ").hasMessageContaining("mcpServers.my-server ");
    }

    @Test
    void namesThatOnlyShareABeginningAreKept() {
        assertThat(parse("upstreams: { h: { command: x }, hx: { command: y }, _h: { command: z }, h-: { command: w } }")
                .upstreams()).hasSize(4);
    }
}
