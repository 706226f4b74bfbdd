package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The observe guide's way from the ref a client saw to the root cause, in the console: {@code
 * warden gateway} and its upstream {@code warden demo} share one data directory, as the guide's
 * set-up has them. The gateway's incident for a failed {@code generate_report} links the demo's
 * own incident, whose original holds the exception the demo threw.
 */
class ConsoleUpstreamRefEndToEndTest {

    @Test
    void theGatewaysIncidentLinksTheIncidentTheUpstreamRecordedInTheSameDirectory() throws Exception {
        Path dir = Files.createTempDirectory("warden-console-upstream-ref");
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, """
                http: { port: 0 }
                upstreams:
                  demo:
                    command: [%s, demo, --data-dir, %s]
                    env: { WARDEN_NO_REBUILD: "1" }
                """.formatted(Processes.LAUNCHER, dir));
        try (ConsoleInChromiumEndToEndTest.Running gateway = ConsoleInChromiumEndToEndTest.serve(config, dir)) {
            String mcp = gateway.mcp();
            String console = gateway.console();

            String session = AuthedHttp.initialize(mcp, Map.of(), "console-upstream-ref");
            JsonNode answer = AuthedHttp.call(mcp, Map.of(), session, 2, "generate_report", "{\"quarter\":\"Q3\"}");
            String ref = answer.at("/result/structuredContent/error/ref").asString();
            assertThat(ref).as(answer.toString()).startsWith("ref_");

            HttpResponse<String> gatewayIncident = AuthedHttp.fetch(console + "incidents/" + ref, Map.of());
            assertThat(gatewayIncident.statusCode()).isEqualTo(200);
            String page = gatewayIncident.body();
            String original = page.substring(page.indexOf("<pre id=\"original\">"),
                    page.indexOf("</pre>", page.indexOf("<pre id=\"original\">")));
            int link = original.indexOf("<a href=\"/incidents/ref_");
            assertThat(link).as("a link to the upstream's incident in the gateway's original: %s", original)
                    .isNotNegative();
            String upstreamRef = original.substring(link + "<a href=\"/incidents/".length(),
                    link + "<a href=\"/incidents/".length() + 20);
            assertThat(upstreamRef).isNotEqualTo(ref);

            HttpResponse<String> upstreamIncident = AuthedHttp.fetch(console + "incidents/" + upstreamRef, Map.of());
            assertThat(upstreamIncident.statusCode()).isEqualTo(200);
            // The demo's exception, for the operator: the internal host, the path, the OS's words.
            assertThat(upstreamIncident.body()).contains("reports.corp.internal", "/var/lib/warden", "Permission denied");
        }
    }
}
