package dev.warden.adapter.springai.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.FileIncidentStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spring AI's async server (spring.ai.mcp.server.type=ASYNC): its {@code @McpTool} methods return
 * {@code Mono}s that fail on another thread than the handler's, and Spring AI makes text of the
 * failure; the client still gets Warden's code and ref, and the trusted refusal's own words.
 */
class SpringAiAsyncTest {

    @TempDir
    static Path dir;

    private static FileIncidentStore store;
    private static BootedServer server;

    @BeforeAll
    static void serve() {
        store = FileIncidentStore.open(dir.resolve("incidents"));
        server = BootedServer.boot(AsyncOrdersApplication.class, store,
                "spring.ai.mcp.server.type=ASYNC", "spring.ai.mcp.server.protocol=STREAMABLE");
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    @Test
    void asyncToolsGetWardensAnswers() {
        Observed later = server.call("order_status", Map.of("id", 7));
        Observed early = server.call("invoice", Map.of("id", 7));
        Observed trusted = server.call("cancel_order", Map.of("id", 1, "reason", "oops"));
        for (Observed seen : new Observed[] {later, early, trusted}) {
            assertThat(seen.kind()).isEqualTo("isError");
            assertThat(seen.text()).doesNotContain("Cannot invoke", "10.0.0.5", "Exception", "ValidationFailure");
            seen.incidentIn(store);
        }
        assertThat(later.text()).contains("INTERNAL_ERROR");
        assertThat(early.text()).contains("INTERNAL_ERROR");
        assertThat(trusted.text()).contains("VALIDATION_ERROR", "must be one of: customer_request, duplicate, fraud");
        assertThat(server.call("ping", Map.of())).isEqualTo(new Observed("result", "pong"));
    }
}
