package dev.warden.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProtocolVersionTest {

    @Test
    void aSupportedVersionIsAnsweredWithItself() {
        for (ProtocolVersion version : ProtocolVersion.values()) {
            if (!version.stateless()) {
                assertThat(ProtocolVersion.negotiate(version.wire())).isEqualTo(version);
            }
        }
    }

    @Test
    void anUnsupportedVersionIsAnsweredWithTheLatest() {
        assertThat(ProtocolVersion.negotiate("1999-01-01")).isEqualTo(ProtocolVersion.latestSessionBased());
        assertThat(ProtocolVersion.latestSessionBased().wire()).isEqualTo("2025-11-25");
        assertThat(ProtocolVersion.latest().wire()).isEqualTo("2026-07-28");
        // initialize never negotiates a stateless version: it has no initialize
        assertThat(ProtocolVersion.negotiate("2026-07-28")).isEqualTo(ProtocolVersion.V2025_11_25);
    }

    @Test
    void theVersionsBeforeJune2025AllowBatchesAndLaterOnesDoNot() {
        // 2024-11-05 follows JSON-RPC 2.0 whole, batches included; 2025-03-26 says so; 2025-06-18 removed them.
        assertThat(ProtocolVersion.V2024_11_05.allowsBatches()).isTrue();
        assertThat(ProtocolVersion.V2025_03_26.allowsBatches()).isTrue();
        assertThat(ProtocolVersion.V2025_06_18.allowsBatches()).isFalse();
        assertThat(ProtocolVersion.V2025_11_25.allowsBatches()).isFalse();
        assertThat(ProtocolVersion.V2026_07_28.allowsBatches()).isFalse();
    }

    @Test
    void toolNamesFollowTheSpecRule() {
        assertThat(Tools.isValidName("get_weather.v2-beta")).isTrue();
        assertThat(Tools.isValidName("")).isFalse();
        assertThat(Tools.isValidName("has space")).isFalse();
        assertThat(Tools.isValidName("x".repeat(129))).isFalse();
    }
}
