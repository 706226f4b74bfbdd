package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.ReconnectPolicy;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class UpstreamBuilderTest {

    private static final Supplier<Transport> NOWHERE = () -> {
        throw new IllegalStateException("not connected in this test");
    };

    @Test
    void aBuilderStartsFromTheDefaultsAndChangesOnlyWhatItIsTold() {
        Upstream u = Upstream.builder("crm", NOWHERE).timeout(Duration.ofSeconds(5)).policy(Policy.STRICT)
                .tools(Optional.of(Set.of("lookup")), Set.of("drop")).perClient(true).build();
        Upstream defaults = Upstream.of("crm", NOWHERE);
        assertThat(u.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(u.policy()).isEqualTo(Policy.STRICT);
        assertThat(u.exposes("lookup")).isTrue();
        assertThat(u.exposes("drop")).isFalse();
        assertThat(u.perClient()).isTrue();
        assertThat(u.limits()).isEqualTo(defaults.limits());
        assertThat(u.closeIdleAfter()).isEqualTo(defaults.closeIdleAfter());
        assertThat(u.maxMessageBytes()).isEqualTo(defaults.maxMessageBytes());
    }

    @Test
    void toBuilderKeepsEverySetting() {
        Upstream u = Upstream.builder("files", NOWHERE).toolTimeouts(Map.of("read", Duration.ofSeconds(2)))
                .redactSuccessfulResults(false).redactResultsOf(Map.of("read", true)).pii(true)
                .closeIdleAfter(Duration.ofMinutes(1)).reconnect(ReconnectPolicy.none())
                .roots(Optional.of(List.of("file:///srv"))).build();
        assertThat(u.toBuilder().build()).isEqualTo(u);
    }

    @Test
    void buildValidatesTheSettings() {
        assertThatThrownBy(() -> Upstream.builder("crm", NOWHERE).timeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout of upstream crm must be positive, got PT0S");
        assertThatThrownBy(() -> Upstream.builder("a__b", NOWHERE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("upstream name");
    }
}
