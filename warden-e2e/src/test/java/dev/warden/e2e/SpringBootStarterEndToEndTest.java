package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The Spring Boot starter in a real application (warden-examples-spring, {@code java -jar}): over
 * Streamable HTTP (on Warden's own Jetty, then on the application's), the official TypeScript SDK
 * client calls a tool bean that fails; it gets Warden's answer (a code and a ref, nothing of the
 * exception), the incident store has the ref, and Actuator reports the {@code warden} health
 * component and the failure in {@code warden.failures}.
 */
class SpringBootStarterEndToEndTest {

    /** What the sample's failing tool throws: a database host, port and user the caller never sent. */
    private static final List<String> INTERNALS = List.of("db.internal", "5432", "orders_admin", "Connection to",
            "IllegalStateException", "Exception", "\tat ", ".java:");

    @TempDir
    Path incidents;

    @Test
    void onWardensOwnJettyTheOfficialClientGetsWardensAnswerAndActuatorSeesTheFailure() throws Exception {
        LinePeer app = SpringSample.start(incidents, "--warden.mcp.http.port=0", "--server.port=0");
        try {
            String webPort = SpringSample.awaitLog(app, SpringSample.WEB_SERVER).split(" ")[0];
            String url = SpringSample.awaitLog(app, SpringSample.SERVING).split(" at ")[1].strip();
            assertThat(url).doesNotContain(":" + webPort + "/");
            callFailingToolAndReadActuator(url, webPort);
        } finally {
            app.destroy();
            app.close();
        }
    }

    /** The same on the application's own Jetty, beside Spring MVC: one port for both. */
    @Test
    void onTheApplicationsJettyTheSame() throws Exception {
        LinePeer app = SpringSample.start(incidents, "--warden.mcp.http.server=application", "--server.port=0");
        try {
            String webPort = SpringSample.awaitLog(app, SpringSample.WEB_SERVER).split(" ")[0];
            String url = SpringSample.awaitLog(app, SpringSample.SERVING).split(" at ")[1].split(" ")[0];
            assertThat(url).isEqualTo("http://127.0.0.1:" + webPort + "/mcp");
            callFailingToolAndReadActuator(url, webPort);
        } finally {
            app.destroy();
            app.close();
        }
    }

    private void callFailingToolAndReadActuator(String url, String webPort) throws Exception {
        Processes.Result run = Processes.run(Processes.node("call-tool.mjs", url, "cancel_order", "{\"id\":\"o-3\"}"));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode out = Json.mapper().readTree(run.stdout());
        assertThat(out.path("serverVersion").path("name").asString()).isEqualTo("warden-sample");
        List<String> tools = new java.util.ArrayList<>();
        out.path("listTools").path("value").path("tools").forEach(tool -> tools.add(tool.path("name").asString()));
        assertThat(tools).contains("cancel_order", "order_status", "test_error_handling");
        JsonNode result = out.path("call").path("value");
        assertThat(result.path("isError").asBoolean()).as(run.stdout()).isTrue();
        JsonNode error = result.path("structuredContent").path("error");
        assertThat(error.path("code").asString()).isEqualTo("INTERNAL_ERROR");
        String ref = error.path("ref").asString();
        assertThat(ref).startsWith("ref_");
        for (String internal : INTERNALS) {
            assertThat(run.stdout()).as("internal detail %s", internal).doesNotContain(internal);
        }
        assertThat(storedText()).as("the incident store holds the ref and the detail")
                .contains(ref).contains("db.internal");

        HttpClient http = HttpClient.newHttpClient();
        String actuator = "http://127.0.0.1:" + webPort + "/actuator";
        JsonNode health = Json.mapper().readTree(get(http, actuator + "/health"));
        assertThat(health.path("components").path("warden").path("status").asString()).isEqualTo("UP");
        JsonNode failures = Json.mapper().readTree(get(http,
                actuator + "/metrics/warden.failures?tag=code:INTERNAL_ERROR"));
        assertThat(failures.path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1.0);
    }

    private String storedText() throws Exception {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(incidents)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                text.append(Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return text.toString();
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s: %s", url, response.body()).isEqualTo(200);
        return response.body();
    }
}
