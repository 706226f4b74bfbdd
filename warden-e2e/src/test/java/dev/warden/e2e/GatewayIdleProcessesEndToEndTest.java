package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code warden gateway} in front of server-everything over stdio: a client declaring elicitation
 * gets a process of its own beside the first client's (server-everything offers tools by its
 * client's capabilities); when it leaves, that process stops once idle for {@code closeIdleAfter},
 * and the first one stays.
 */
class GatewayIdleProcessesEndToEndTest {

    private HttpGateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
    }

    /** The server-everything processes the gateway runs. */
    private List<ProcessHandle> upstreams() {
        return gateway.peer().descendants().stream()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(WardenClientWithServerEverythingTest.SERVER))
                        .orElse(false))
                .toList();
    }

    /** Waits (a hang guard, not a speed check) until the gateway runs {@code count} server processes. */
    private List<ProcessHandle> awaitUpstreams(int count) throws InterruptedException {
        List<ProcessHandle> now = upstreams();
        for (int i = 0; i < 600 && now.size() != count; i++) {
            Thread.sleep(100);
            now = upstreams();
        }
        assertThat(now).hasSize(count);
        return now;
    }

    private McpClient client(String name, boolean elicitation) {
        McpClient.Builder builder = McpClient.builder(name, "1").requestTimeout(Duration.ofSeconds(60));
        if (elicitation) {
            builder.onElicitation(params -> Json.object().put("action", "decline"));
        }
        return builder.connect(McpClient.http(URI.create(gateway.url())));
    }

    @Test
    void theProcessOfAClientThatLeftStopsOnceIdleAndTheFirstStays() throws Exception {
        gateway = HttpGateway.inFrontOfServerEverything("closeIdleAfter: 1s");
        try (McpClient plain = client("plain", false)) {
            assertThat(plain.listTools()).isNotEmpty();
            ProcessHandle first = awaitUpstreams(1).get(0);
            try (McpClient asking = client("asking", true)) {
                assertThat(asking.listTools()).extracting(t -> t.name())
                        .contains("trigger-elicitation-request");
                awaitUpstreams(2);
            }

            List<ProcessHandle> left = awaitUpstreams(1);

            assertThat(left).containsExactly(first);
            assertThat(plain.callTool("echo", Json.object().put("message", "still here")).text())
                    .contains("still here");
        }
    }
}
