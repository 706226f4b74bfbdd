package dev.warden.adapter.springai.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A tools/call whose {@code arguments} is no object ({@code "oops"}), sent as raw bytes to Spring AI's
 * HTTP servers with Warden on. The SDK (mcp-core 2.0.0, which Spring AI 2.0.1 pins) turns the params
 * into its request record inside {@code McpAsyncServer}'s tools/call handler but outside the Mono its
 * session answers from, so the failure escapes the session on HTTP: the caller never gets a JSON-RPC
 * answer to its id, whatever mapper converts (Warden gives the stateful server the guard's, which
 * answers -32602 over stdio: {@code ServerCustomizersTest}). What each transport does then is recorded
 * here: one HTTP answer, nothing of the cause in it. Should the SDK answer, these assertions fail.
 */
class SpringAiInvalidParamsTest {

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"order_status\",\"arguments\":\"oops\"}}";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    private static FileIncidentStore store;
    private static ConfigurableApplicationContext streamable;
    private static ConfigurableApplicationContext stateless;

    @BeforeAll
    static void serve() throws IOException {
        Path reports = Files.createDirectories(dir.resolve("srv/orders/reports"));
        store = FileIncidentStore.open(dir.resolve("incidents"));
        streamable = app("STREAMABLE", "params", reports).run();
        stateless = app("STATELESS", "params_stateless", reports).run();
    }

    @AfterAll
    static void stop() {
        streamable.close();
        stateless.close();
        store.close();
    }

    private static SpringApplicationBuilder app(String protocol, String db, Path reports) {
        return new SpringApplicationBuilder(OrdersApplication.class).properties(
                "server.port=0", "server.address=127.0.0.1", "server.shutdown=immediate",
                "spring.main.banner-mode=off", "spring.ai.mcp.server.name=orders", "spring.ai.mcp.server.type=SYNC",
                "spring.ai.mcp.server.protocol=" + protocol,
                "orders.jdbc-url=jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1", "orders.reports=" + reports)
                .initializers(context -> context.getBeanFactory().registerSingleton("incidents", store));
    }

    @Test
    void streamableHttpRethrowsSoTheServletAnswers500WithoutJsonRpc() throws Exception {
        URI endpoint = endpoint(streamable);
        HttpResponse<String> init = post(endpoint, Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        Optional<String> session = init.headers().firstValue("mcp-session-id");
        post(endpoint, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

        HttpResponse<String> response = post(endpoint, session, CALL);
        // The transport logs "Failed to handle request stream: Invalid params" and rethrows; Spring
        // Boot's error page answers.
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("\"status\":500", "\"path\":\"/mcp\"").doesNotContain("jsonrpc");
        assertNothingOfTheCause(response.body());
    }

    @Test
    void statelessTransportCatchesSoItsErrorHasNoId() throws Exception {
        HttpResponse<String> response = post(endpoint(stateless), Optional.empty(), CALL);
        // Spring AI's stateless server takes no customizer, so it keeps the SDK's mapper: Jackson's
        // failure reaches the transport's catch, which writes an error without the request's id,
        // as Warden's INTERNAL_ERROR with a ref (TransportErrorModule).
        String body = response.body();
        assertThat(body).containsOnlyOnce("\"jsonrpc\"");
        JsonNode answer = Json.mapper().readTree(body);
        assertThat(answer.path("id").isNull()).as(body).isTrue();
        assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(answer.path("error").path("data").path("code").asString()).isEqualTo("INTERNAL_ERROR");
        assertNothingOfTheCause(body);
        new Observed("error -32603", body).incidentIn(store);
    }

    private static void assertNothingOfTheCause(String body) {
        assertThat(body).doesNotContain("oops", "Cannot", "jackson", "LinkedHashMap", "Exception");
    }

    private static URI endpoint(ConfigurableApplicationContext app) {
        return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/mcp");
    }

    private static HttpResponse<String> post(URI endpoint, Optional<String> session, String body)
            throws IOException, InterruptedException {
        // The timeout only ends a request the server never answers (so the test fails, not hangs).
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        session.ifPresent(id -> request.header("mcp-session-id", id));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
