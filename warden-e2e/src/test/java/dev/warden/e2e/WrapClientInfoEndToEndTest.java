package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden wrap} is a drop-in for who the server hears is calling: a server on the official
 * TypeScript SDK sees the same {@code clientInfo} (name, version, title) through wrap as directly,
 * not the gateway's name; so does a {@code perClient} upstream of {@code warden gateway} over HTTP.
 */
class WrapClientInfoEndToEndTest {

    private static JsonNode seenBy(List<String> serverCommand) throws Exception {
        List<String> command = new ArrayList<>(Processes.node("client-info-client.mjs"));
        command.addAll(serverCommand);
        Processes.Result result = Processes.run(command);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    @Test
    void theServerSeesTheSameClientThroughWrapAsDirectly() throws Exception {
        List<String> server = Processes.node("client-info-server.mjs");
        List<String> wrapped = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                Files.createTempDirectory("warden-wrap-client-info").toString(), "--"));
        wrapped.addAll(server);

        JsonNode direct = seenBy(server);
        JsonNode through = seenBy(wrapped);

        assertThat(direct.path("name").asString()).isEqualTo("acme-desktop");
        assertThat(through).isEqualTo(direct);
    }

    /** What the server behind {@code warden gateway} over HTTP saw, its upstream per client or shared. */
    private static JsonNode seenThroughTheGateway(boolean perClient) throws Exception {
        List<String> server = Processes.node("client-info-server.mjs");
        HttpGateway gateway = HttpGateway.start("""
                http: { port: 0 }
                upstreams:
                  who:
                    command: [%s, %s]
                    perClient: %s
                """.formatted(server.get(0), server.get(1), perClient), 1);
        try {
            return seenBy(List.of(gateway.url()));
        } finally {
            gateway.stop();
        }
    }

    @Test
    void aPerClientUpstreamOfTheGatewaySeesTheSameClientAsDirectly() throws Exception {
        assertThat(seenThroughTheGateway(true)).isEqualTo(seenBy(Processes.node("client-info-server.mjs")));
    }

    @Test
    void aSharedUpstreamOfTheGatewaySeesTheGatewayForItServesSeveralClients() throws Exception {
        assertThat(seenThroughTheGateway(false).path("name").asString()).isEqualTo("warden-gateway");
    }
}
