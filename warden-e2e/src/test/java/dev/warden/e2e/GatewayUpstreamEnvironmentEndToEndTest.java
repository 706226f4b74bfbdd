package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden gateway} starts a stdio upstream (server-everything, whose get-env tool returns its
 * whole environment) with only what its configuration names and a minimal base: a credential the
 * gateway process holds for another upstream never reaches it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayUpstreamEnvironmentEndToEndTest {

    /** In the gateway's environment for another upstream's header: not this server's business. */
    static final String OTHERS_TOKEN = "crm-" + java.util.UUID.randomUUID();
    static final String PASSED_ON = "passed-" + java.util.UUID.randomUUID();

    HttpGateway gateway;
    JsonNode env;

    @BeforeAll
    void start() throws Exception {
        gateway = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                    env: { NAMED_IN_CONFIG: "from the file" }
                    inheritEnv: [WARDEN_E2E_PASSED_ON]
                """.formatted(Processes.NODE, WardenClientWithServerEverythingTest.SERVER), 1,
                Map.of("WARDEN_E2E_CRM_TOKEN", OTHERS_TOKEN, "WARDEN_E2E_PASSED_ON", PASSED_ON,
                        "LC_MESSAGES", "C"));
        try (McpClient client = McpClient.builder("env", "1").requestTimeout(Duration.ofSeconds(60))
                .connect(McpClient.http(URI.create(gateway.url())))) {
            String text = client.callTool("get-env", Json.object()).text();
            env = Json.mapper().readTree(text);
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
    }

    @Test
    void aVariableOfTheGatewayTheConfigDoesNotNameNeverReachesTheServer() {
        assertThat(env.has("WARDEN_E2E_CRM_TOKEN")).as(env.propertyNames().toString()).isFalse();
        assertThat(env.toString()).doesNotContain(OTHERS_TOKEN);
    }

    @Test
    void theServerGetsWhatItsConfigNamesAndTheMinimalBase() {
        assertThat(env.path("NAMED_IN_CONFIG").asString()).isEqualTo("from the file");
        assertThat(env.path("WARDEN_E2E_PASSED_ON").asString()).isEqualTo(PASSED_ON);
        assertThat(env.path("LC_MESSAGES").asString()).isEqualTo("C");
        assertThat(env.has("PATH")).isTrue();
    }
}
