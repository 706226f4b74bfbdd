package dev.warden.adapter.springai.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.adapter.mcpsdk.sample.Clients;
import dev.warden.adapter.mcpsdk.sample.Observed;
import dev.warden.core.incident.FileIncidentStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shop served twice by Spring AI's MCP server (2.0.1, Streamable HTTP on Spring MVC), booted
 * here as an application is: once with Warden switched off ({@code warden.spring-ai.enabled=false}),
 * once with it on (the jar's default), and driven by the official Java SDK client (raw HTTP for what
 * the transport answers itself). Off, each failure leaks what the guide's table says (asserted, so
 * the table stays true); on, none does, every failure has a code and a ref, the incident behind the
 * ref holds the original, and the trusted failures' text arrives. The table goes to target/.
 */
// The requests' constructors (2.0 has no builders for them yet).
@SuppressWarnings("deprecation")
class SpringAiSideBySideTest {

    @TempDir
    static Path dir;

    private static ConfigurableApplicationContext plainApp;
    private static ConfigurableApplicationContext guardedApp;
    private static URI plain;
    private static URI guarded;
    private static FileIncidentStore store;
    private static Path reports;

    @BeforeAll
    static void serve() throws IOException {
        reports = Files.createDirectories(dir.resolve("srv/orders/reports"));
        store = FileIncidentStore.open(dir.resolve("incidents"));
        plainApp = app(false).run();
        guardedApp = app(true).initializers(context -> context.getBeanFactory().registerSingleton("incidents", store))
                .run();
        plain = base(plainApp);
        guarded = base(guardedApp);
    }

    @AfterAll
    static void stop() {
        plainApp.close();
        guardedApp.close();
        store.close();
    }

    private static SpringApplicationBuilder app(boolean warden) {
        return new SpringApplicationBuilder(OrdersApplication.class).properties(
                // immediate: a client's open event stream would hold a graceful shutdown for 30 s
                "server.port=0", "server.address=127.0.0.1", "server.shutdown=immediate",
                "spring.main.banner-mode=off", "spring.ai.mcp.server.name=orders", "spring.ai.mcp.server.type=SYNC",
                "spring.ai.mcp.server.protocol=STREAMABLE",
                "orders.jdbc-url=jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1", "orders.reports=" + reports,
                "warden.spring-ai.enabled=" + warden);
    }

    private static URI base(ConfigurableApplicationContext app) {
        return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port"));
    }

    /** The seeds: each a request that fails, made the same way against either server. */
    private static Map<String, Function<URI, Observed>> seeds() {
        Map<String, Function<URI, Observed>> seeds = new LinkedHashMap<>();
        seeds.put("NullPointerException deep in a tool", b -> call(b, "order_status", Map.of("id", 7)));
        seeds.put("H2 unique violation (23505)", b -> call(b, "create_order", Map.of("id", 1)));
        seeds.put("H2 unknown column (42122)", b -> call(b, "order_total", Map.of("id", 1)));
        seeds.put("upstream URL with its token", b -> call(b, "invoice", Map.of("id", 1)));
        seeds.put("missing file, checked IOException", b -> call(b, "report", Map.of("name", "q3.csv")));
        seeds.put("trusted ValidationFailure", b -> call(b, "cancel_order", Map.of("id", 1, "reason", "oops")));
        seeds.put("the shop's own refusal, mapped by a FailureClassifier bean",
                b -> call(b, "place_order", Map.of("quantity", 500)));
        seeds.put("@Tool: NullPointerException", b -> call(b, "tool_order_status", Map.of("id", 7)));
        seeds.put("@Tool: missing file, checked IOException", b -> call(b, "tool_report", Map.of("name", "q3.csv")));
        seeds.put("@Tool: trusted ConflictFailure", b -> call(b, "tool_hold_order", Map.of("id", 1)));
        seeds.put("missing file (@McpResource)", b -> client(b,
                c -> c.readResource(new McpSchema.ReadResourceRequest("orders://reports/latest"))));
        seeds.put("NullPointerException in a prompt (@McpPrompt)", b -> client(b,
                c -> c.getPrompt(new McpSchema.GetPromptRequest("summarize_order", Map.of("id", "7")))));
        seeds.put("malformed JSON (transport)", b -> raw(b, true, "{\"jsonrpc\":\"2.0\",\"id\":"));
        seeds.put("unknown session (transport)", b -> raw(b, false,
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}"));
        return seeds;
    }

    @Test
    void guardedNothingLeaksEveryFailureHasACodeAndARefAndTheTrustedTextArrives() {
        Map<String, Observed> before = new LinkedHashMap<>();
        Map<String, Observed> after = new LinkedHashMap<>();
        seeds().forEach((name, seed) -> {
            before.put(name, seed.apply(plain));
            after.put(name, seed.apply(guarded));
        });
        table(before, after);

        after.forEach((name, seen) -> {
            assertThat(seen.text()).as(name).doesNotContain("Exception", "\tat ", "stackTrace", "Shipment",
                    "SHOP_ORDERS", "shop_orders", "TOTL_CENTS", "totl_cents", "PRIMARY KEY", "SQL statement",
                    Shop.UPSTREAM_TOKEN, Shop.UPSTREAM_HOST, dir.toString(), "java.", "Caused by", "Cannot invoke",
                    "OrderPolicy");
            seen.incidentIn(store);
        });
        assertThat(after.get("trusted ValidationFailure").kind()).isEqualTo("isError");
        assertThat(after.get("trusted ValidationFailure").text())
                .contains("VALIDATION_ERROR", "/reason", "must be one of: customer_request, duplicate, fraud");
        assertThat(after.get("the shop's own refusal, mapped by a FailureClassifier bean").text())
                .contains("VALIDATION_ERROR", "/quantity", "must be between 1 and 100").doesNotContain("OrderPolicy");
        assertThat(after.get("@Tool: trusted ConflictFailure").text())
                .contains("CONFLICT", "order 1 has shipped; it can no longer be held");
        assertThat(after.get("H2 unique violation (23505)").text())
                .contains("CONFLICT", "A record with the same unique value already exists.");
        assertThat(after.get("NullPointerException deep in a tool").text()).contains("INTERNAL_ERROR");
        assertThat(after.get("missing file, checked IOException").kind()).isEqualTo("isError");
        assertThat(after.get("missing file (@McpResource)").kind()).isEqualTo("error -32603");
        assertThat(after.get("NullPointerException in a prompt (@McpPrompt)").kind()).isEqualTo("error -32603");
        assertThat(originalOf(after.get("H2 unknown column (42122)"))).containsIgnoringCase("totl_cents");
        assertThat(originalOf(after.get("NullPointerException deep in a tool"))).contains("Shipment");
        assertThat(originalOf(after.get("@Tool: missing file, checked IOException"))).contains(reports.toString());
        assertThat(originalOf(after.get("upstream URL with its token"))).contains(Shop.UPSTREAM_HOST)
                .doesNotContain(Shop.UPSTREAM_TOKEN); // a credential is not kept at rest either

        // Spring AI alone: what the same failures tell the client.
        assertThat(before.get("NullPointerException deep in a tool").text()).contains("Shipment");
        assertThat(before.get("H2 unique violation (23505)").text()).containsIgnoringCase("shop_orders");
        assertThat(before.get("H2 unknown column (42122)").text()).containsIgnoringCase("totl_cents");
        assertThat(before.get("upstream URL with its token").text()).contains(Shop.UPSTREAM_TOKEN);
        assertThat(before.get("@Tool: NullPointerException").text()).contains("Shipment");
        assertThat(before.get("the shop's own refusal, mapped by a FailureClassifier bean").text())
                .contains("OrderPolicy#check");
        assertThat(before.get("@Tool: missing file, checked IOException").text()).contains(reports.toString());
        assertThat(before.get("missing file (@McpResource)").text()).contains(reports.toString());
        assertThat(before.get("NullPointerException in a prompt (@McpPrompt)").text()).contains("Shipment");
        assertThat(before.get("missing file, checked IOException").text()).contains("\"status\":500");
        assertThat(before.get("malformed JSON (transport)").text()).contains("stackTrace");
        assertThat(before.get("unknown session (transport)").text()).contains("stackTrace");
        before.forEach((name, seen) -> assertThat(seen.warden()).as(name).isEmpty());
    }

    @Test
    void oneSwitch() {
        assertThat(guardedApp.getBeanProvider(WardenGuard.class).getIfAvailable()).isNotNull();
        assertThat(plainApp.getBeanProvider(WardenGuard.class).getIfAvailable()).isNull();
    }

    @Test
    void whatWorksIsUnchanged() {
        for (URI base : new URI[] {plain, guarded}) {
            assertThat(call(base, "order_total_stored", Map.of("id", 1))).isEqualTo(new Observed("result", "4200"));
        }
        assertThat(client(guarded, McpSyncClient::listTools)).isEqualTo(client(plain, McpSyncClient::listTools));
        assertThat(client(guarded, McpSyncClient::listResources))
                .isEqualTo(client(plain, McpSyncClient::listResources));
        assertThat(client(guarded, McpSyncClient::listPrompts)).isEqualTo(client(plain, McpSyncClient::listPrompts));
    }

    private static String originalOf(Observed seen) {
        return seen.originalIn(store);
    }

    private static Observed call(URI base, String tool, Map<String, Object> arguments) {
        return client(base, c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)));
    }

    private static Observed client(URI base, Function<McpSyncClient, Object> request) {
        return Clients.sdk(base, "/mcp", request);
    }

    private static Observed raw(URI base, boolean inSession, String body) {
        return Clients.raw(base.resolve("/mcp"), inSession, body);
    }

    /** The measured side-by-side, for docs/guides/protect-a-spring-ai-server.md. */
    private static void table(Map<String, Observed> before, Map<String, Observed> after) {
        StringBuilder table = new StringBuilder(
                "| failure | Spring AI as it is | with warden-spring-ai |\n|---|---|---|\n");
        before.forEach((name, seen) -> table.append("| ").append(name).append(" | ").append(seen.cell(200))
                .append(" | ").append(after.get(name).cell(200)).append(" |\n"));
        StringBuilder full = new StringBuilder();
        before.forEach((name, seen) -> full.append("## ").append(name).append("\n\nas it is: ").append(seen)
                .append("\n\nguarded: ").append(after.get(name)).append("\n\n"));
        try {
            Files.writeString(Path.of("target", "spring-ai-side-by-side.md"), table);
            Files.writeString(Path.of("target", "spring-ai-side-by-side-full.md"), full);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
