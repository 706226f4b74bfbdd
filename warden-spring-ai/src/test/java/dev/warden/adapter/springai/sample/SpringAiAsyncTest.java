package dev.warden.adapter.springai.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.sample.Clients;
import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.FileIncidentStore;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring AI's async server (spring.ai.mcp.server.type=ASYNC): its {@code @McpTool} methods return
 * {@code Mono}s that fail on another thread than the handler's, and Spring AI makes text of the
 * failure; the client still gets Warden's code and ref, and the trusted refusal's own words.
 */
// The requests' constructors (2.0 has no builders for them yet).
@SuppressWarnings("deprecation")
class SpringAiAsyncTest {

    @TempDir
    static Path dir;

    private static ConfigurableApplicationContext app;
    private static FileIncidentStore store;
    private static URI base;

    @BeforeAll
    static void serve() {
        store = FileIncidentStore.open(dir.resolve("incidents"));
        app = new SpringApplicationBuilder(AsyncOrdersApplication.class).properties(
                "server.port=0", "server.address=127.0.0.1", "server.shutdown=immediate",
                "spring.main.banner-mode=off", "spring.ai.mcp.server.name=orders",
                "spring.ai.mcp.server.type=ASYNC", "spring.ai.mcp.server.protocol=STREAMABLE")
                .initializers(context -> context.getBeanFactory().registerSingleton("incidents", store)).run();
        base = URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port"));
    }

    @AfterAll
    static void stop() {
        app.close();
        store.close();
    }

    @Test
    void asyncToolsGetWardensAnswers() {
        Observed later = call("order_status", Map.of("id", 7));
        Observed early = call("invoice", Map.of("id", 7));
        Observed trusted = call("cancel_order", Map.of("id", 1, "reason", "oops"));
        for (Observed seen : new Observed[] {later, early, trusted}) {
            assertThat(seen.kind()).isEqualTo("isError");
            assertThat(seen.text()).doesNotContain("Cannot invoke", "10.0.0.5", "Exception", "ValidationFailure");
            seen.incidentIn(store);
        }
        assertThat(later.text()).contains("INTERNAL_ERROR");
        assertThat(early.text()).contains("INTERNAL_ERROR");
        assertThat(trusted.text()).contains("VALIDATION_ERROR", "must be one of: customer_request, duplicate, fraud");
        assertThat(call("ping", Map.of())).isEqualTo(new Observed("result", "pong"));
    }

    private static Observed call(String tool, Map<String, Object> arguments) {
        return Clients.sdk(base, "/mcp", c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)));
    }
}
