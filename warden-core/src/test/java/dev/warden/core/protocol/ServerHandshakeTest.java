package dev.warden.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerHandshakeTest {

    private static final ServerHandshake.Offer OFFER = new ServerHandshake.Offer(
            Json.object().set("tools", Json.object().put("listChanged", false)),
            Implementation.of("demo", "1.0"), Optional.of("Use the tools."));

    @Test
    void theInitializeResultNamesTheAgreedVersionThenWhatIsOffered() {
        assertThat(Json.write(ServerHandshake.initializeResult(ProtocolVersion.V2025_06_18, OFFER))).isEqualTo(
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{\"listChanged\":false}},"
                        + "\"serverInfo\":{\"name\":\"demo\",\"version\":\"1.0\"},\"instructions\":\"Use the tools.\"}");
    }

    @Test
    void discoverListsEveryVersionAndLeavesTheServersNameToTheDecoration() {
        assertThat(Json.write(ServerHandshake.discoverResult(OFFER))).isEqualTo(
                "{\"supportedVersions\":[\"2024-11-05\",\"2025-03-26\",\"2025-06-18\",\"2025-11-25\",\"2026-07-28\"],"
                        + "\"capabilities\":{\"tools\":{\"listChanged\":false}},\"instructions\":\"Use the tools.\"}");
    }

    @Test
    void withoutInstructionsNoneAreSaid() {
        ServerHandshake.Offer plain = new ServerHandshake.Offer(Json.object(), Implementation.of("demo", "1.0"),
                Optional.empty());
        assertThat(ServerHandshake.initializeResult(ProtocolVersion.V2025_11_25, plain).has("instructions")).isFalse();
        assertThat(ServerHandshake.discoverResult(plain).has("instructions")).isFalse();
    }
}
