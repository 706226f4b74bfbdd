package dev.warden.adapter.springai.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.sample.Clients;
import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.FileIncidentStore;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same shop on Spring AI's stateless server (spring.ai.mcp.server.protocol=STATELESS), whose
 * specifications are the SDK's stateless records: guarded the same way, with Warden on by default.
 */
// The requests' constructors (2.0 has no builders for them yet).
@SuppressWarnings("deprecation")
class SpringAiStatelessTest {

    @TempDir
    static Path dir;

    private static FileIncidentStore store;
    private static BootedServer server;

    @BeforeAll
    static void serve() throws IOException {
        Path reports = Files.createDirectories(dir.resolve("srv/orders/reports"));
        store = FileIncidentStore.open(dir.resolve("incidents"));
        server = BootedServer.boot(OrdersApplication.class, store,
                "spring.ai.mcp.server.type=SYNC", "spring.ai.mcp.server.protocol=STATELESS",
                "orders.jdbc-url=jdbc:h2:mem:stateless;DB_CLOSE_DELAY=-1", "orders.reports=" + reports);
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    @Test
    void statelessToolsAndResourcesGetWardensAnswers() {
        Observed npe = server.call("order_status", Map.of("id", 7));
        Observed checked = server.call("tool_report", Map.of("name", "q3.csv"));
        Observed trusted = server.call("cancel_order", Map.of("id", 1, "reason", "oops"));
        Observed resource = Clients.sdk(server.base(), "/mcp",
                c -> c.readResource(new McpSchema.ReadResourceRequest("orders://reports/latest")));
        for (Observed seen : new Observed[] {npe, checked, trusted, resource}) {
            assertThat(seen.text()).doesNotContain("Shipment", "Cannot invoke", dir.toString(), "Exception");
            seen.incidentIn(store);
        }
        assertThat(npe.kind()).isEqualTo("isError");
        assertThat(npe.text()).contains("INTERNAL_ERROR");
        assertThat(checked.kind()).isEqualTo("isError");
        assertThat(trusted.text()).contains("VALIDATION_ERROR", "must be one of: customer_request, duplicate, fraud");
        assertThat(resource.kind()).isEqualTo("error -32603");
        assertThat(server.call("order_total_stored", Map.of("id", 1))).isEqualTo(new Observed("result", "4200"));
    }
}
