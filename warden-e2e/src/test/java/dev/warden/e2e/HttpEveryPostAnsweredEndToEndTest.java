package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Every POST of a 2025-11-25 session is answered, through {@code warden gateway} and
 * {@code warden demo --http}: a batch (which this version does not allow) is refused on the POST
 * itself, and a second request with the id of one in flight is refused at once while the first
 * completes. Before, both POSTs hung: the batch's refusal had no id and reached no stream, and the
 * duplicate took over the first request's stream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpEveryPostAnsweredEndToEndTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String BATCH = """
            [{"jsonrpc":"2.0","id":21,"method":"tools/list"},{"jsonrpc":"2.0","id":22,"method":"ping"}]""";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HttpGateway gateway;
    private LinePeer demo;
    private String demoUrl;

    @BeforeAll
    void start() throws Exception {
        gateway = HttpGateway.inFrontOfServerEverything();
        demo = new LinePeer(List.of(Processes.LAUNCHER.toString(), "demo", "--http", "0", "--data-dir",
                Files.createTempDirectory("warden-demo-e2e").toString()));
        String line = demo.nextLine(Duration.ofSeconds(60));
        demoUrl = line.substring(line.indexOf("http://")).strip();
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (demo != null) {
            demo.destroy();
        }
    }

    @Test
    void aBatchThroughTheGatewayIsRefusedOnThePost() throws Exception {
        assertBatchRefused(gateway.url());
    }

    @Test
    void aBatchToTheDemoIsRefusedOnThePost() throws Exception {
        assertBatchRefused(demoUrl);
    }

    @Test
    void aDuplicateIdThroughTheGatewayIsRefusedAndTheFirstCallCompletes() throws Exception {
        String session = initialize(gateway.url());
        // 10 s: the duplicate must come while the first call runs, also on a loaded machine.
        String longCall = """
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"trigger-long-running-operation",\
                "arguments":{"duration":10,"steps":2},"_meta":{"progressToken":"t7"}}}""";
        HttpResponse<java.io.InputStream> first = post(gateway.url(), session, longCall, HttpResponse.BodyHandlers.ofInputStream());
        BufferedReader events = new BufferedReader(new InputStreamReader(first.body(), StandardCharsets.UTF_8));
        assertThat(events.readLine()).startsWith("id:"); // the priming event: the call is in flight
        CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> events.lines()
                .reduce("", (a, b) -> a + b + "\n"));

        // Bounded: before, the duplicate took over the first call's stream and was answered there.
        HttpResponse<String> duplicate = assertTimeoutPreemptively(PATIENCE, () -> post(gateway.url(), session, """
                {"jsonrpc":"2.0","id":7,"method":"ping"}""", HttpResponse.BodyHandlers.ofString()));

        assertThat(duplicate.statusCode()).isEqualTo(400);
        assertThat(Json.mapper().readTree(duplicate.body()).at("/error/code").asInt()).isEqualTo(-32600);
        String answer = rest.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer).contains("\"id\":7").contains("\"result\"");
    }

    private void assertBatchRefused(String url) throws Exception {
        String session = initialize(url);
        // Bounded: the request timeout covers the headers only, and before, an event stream opened and never ended.
        HttpResponse<String> response = assertTimeoutPreemptively(PATIENCE,
                () -> post(url, session, BATCH, HttpResponse.BodyHandlers.ofString()));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = Json.mapper().readTree(response.body());
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(error.at("/error/data/ref").asString()).startsWith("ref_");
    }

    private String initialize(String url) throws Exception {
        HttpResponse<String> init = post(url, null, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
                "capabilities":{},"clientInfo":{"name":"every-post","version":"1"}}}""",
                HttpResponse.BodyHandlers.ofString());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(202);
        return session;
    }

    private <T> HttpResponse<T> post(String url, String session, String body, HttpResponse.BodyHandler<T> handler)
            throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .timeout(PATIENCE).POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return http.send(builder.build(), handler);
    }
}
