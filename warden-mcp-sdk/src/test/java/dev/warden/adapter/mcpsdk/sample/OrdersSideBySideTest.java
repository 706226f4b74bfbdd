package dev.warden.adapter.mcpsdk.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.FileIncidentStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orders server (official SDK, seed failures) served twice on one Jetty over the SDK's
 * Streamable HTTP servlet, as it is and guarded by Warden, and driven by the official Java SDK
 * client (and raw HTTP for what a transport answers itself). Unguarded, each failure leaks what the
 * guide's table says (asserted, so the table stays true); guarded, none does, every failure has a
 * code and a ref, the incident behind the ref holds the original, and the trusted failure's text
 * arrives. The table is written to target/ for the guide.
 */
// The records' constructors that 2.0 and 2.1 both have (2.1 deprecates them for builders 2.0 lacks).
@SuppressWarnings("deprecation")
class OrdersSideBySideTest {

    @TempDir
    static Path dir;

    private static SideBySide servers;
    private static URI base;
    private static FileIncidentStore store;

    @BeforeAll
    static void serve() throws Exception {
        servers = SideBySide.start(dir);
        base = servers.base();
        store = servers.incidents();
    }

    @AfterAll
    static void stop() throws Exception {
        servers.close();
    }

    /** The seeds: each a request that fails, made the same way against either server. */
    private static Map<String, Function<String, Observed>> seeds() {
        Map<String, Function<String, Observed>> seeds = new LinkedHashMap<>();
        seeds.put("NullPointerException deep in a tool", p -> call(p, "order_status", Map.of("id", 7)));
        seeds.put("PostgreSQL unique violation (23505)", p -> call(p, "create_order", Map.of("id", 1)));
        seeds.put("PostgreSQL unknown column (42703)", p -> call(p, "order_total", Map.of("id", 1)));
        seeds.put("upstream URL with its token", p -> call(p, "invoice", Map.of("id", 1)));
        seeds.put("trusted validation failure", p -> call(p, "cancel_order", Map.of("id", 1, "reason", "oops")));
        seeds.put("missing file (resource template)", p -> client(p,
                c -> c.readResource(new McpSchema.ReadResourceRequest("orders://reports/q3.csv"))));
        seeds.put("NullPointerException in a prompt", p -> client(p,
                c -> c.getPrompt(new McpSchema.GetPromptRequest("summarize_order", Map.of("id", "7")))));
        seeds.put("tools/call whose arguments are no object", p -> raw(p, true,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"invoice\",\"arguments\":\"x\"}}"));
        seeds.put("malformed JSON (transport)", p -> raw(p, true, "{\"jsonrpc\":\"2.0\",\"id\":"));
        seeds.put("unknown session (transport)", p -> raw(p, false,
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}"));
        return seeds;
    }

    @Test
    void guardedNothingLeaksEveryFailureHasACodeAndARefAndTheTrustedTextArrives() {
        Map<String, Observed> plain = new LinkedHashMap<>();
        Map<String, Observed> guarded = new LinkedHashMap<>();
        seeds().forEach((name, seed) -> {
            plain.put(name, seed.apply(SideBySide.PLAIN));
            guarded.put(name, seed.apply(SideBySide.GUARDED));
        });
        table(plain, guarded);
        assertThat(McpSchema.class.getPackage().getImplementationVersion()).as("the SDK these tests run against")
                .isEqualTo(System.getProperty("warden.mcp-sdk.expected", "2.1.0"));

        // The SDK converts a tools/call's params before any handler runs, outside its error handling:
        // arguments that are no object end the response stream with no answer at all, guarded or not.
        String unanswered = "tools/call whose arguments are no object";
        assertThat(plain.get(unanswered)).isEqualTo(new Observed("HTTP 200", ""));
        assertThat(guarded.remove(unanswered)).isEqualTo(new Observed("HTTP 200", ""));
        guarded.forEach((name, seen) -> {
            assertThat(seen.text()).as(name).doesNotContain("Exception", "\tat ", "stackTrace", "Shipment",
                    "sdk_orders", "totl_cents", "PSQL", OrdersServer.UPSTREAM_TOKEN, OrdersServer.UPSTREAM_HOST,
                    dir.toString(), "java.", "io.modelcontextprotocol", "Caused by");
            seen.incidentIn(store);
        });
        assertThat(guarded.get("trusted validation failure").kind()).isEqualTo("isError");
        assertThat(guarded.get("trusted validation failure").text())
                .contains("VALIDATION_ERROR", "/reason", "must be one of: customer_request, duplicate, fraud");
        assertThat(guarded.get("PostgreSQL unique violation (23505)").text())
                .contains("CONFLICT", "A record with the same unique value already exists.");
        assertThat(guarded.get("NullPointerException deep in a tool").text()).contains("INTERNAL_ERROR");
        // The caller's mistake, answered as Warden's own HTTP server answers it, the id not repeated.
        assertThat(guarded.get("unknown session (transport)")).satisfies(seen -> {
            assertThat(seen.kind()).isEqualTo("HTTP 404");
            assertThat(seen.text()).contains("\"code\":-32600", "\"code\":\"NOT_FOUND\"",
                    "Not found: the session does not exist").doesNotContain("no-such-session");
        });
        assertThat(originalOf(guarded.get("PostgreSQL unknown column (42703)"))).contains("totl_cents");
        assertThat(originalOf(guarded.get("NullPointerException deep in a tool"))).contains("Shipment");
        assertThat(originalOf(guarded.get("missing file (resource template)"))).contains(servers.reports().toString());
        assertThat(originalOf(guarded.get("upstream URL with its token"))).contains(OrdersServer.UPSTREAM_HOST)
                .doesNotContain(OrdersServer.UPSTREAM_TOKEN); // a credential is not kept at rest either

        // Unguarded, the same failures tell the client what the table says.
        assertThat(plain.get("NullPointerException deep in a tool").text()).contains("Shipment");
        assertThat(plain.get("PostgreSQL unique violation (23505)").text()).contains("sdk_orders_pkey");
        assertThat(plain.get("PostgreSQL unknown column (42703)").text()).contains("totl_cents");
        assertThat(plain.get("upstream URL with its token").text()).contains(OrdersServer.UPSTREAM_TOKEN);
        assertThat(plain.get("trusted validation failure").kind()).isEqualTo("error -32603");
        assertThat(plain.get("missing file (resource template)").text()).contains(servers.reports().toString());
        assertThat(plain.get("NullPointerException in a prompt").text()).contains("Shipment");
        if (McpSchema.class.getPackage().getImplementationVersion().equals("2.0.0")) {
            // 2.0 also put the cause chain in the error's data.
            assertThat(plain.get("PostgreSQL unique violation (23505)").text()).contains("data=\"RuntimeException: ");
        }
        assertThat(plain.get("malformed JSON (transport)").text()).contains("stackTrace");
        assertThat(plain.get("unknown session (transport)").text()).contains("stackTrace");
    }

    private static String originalOf(Observed seen) {
        return seen.originalIn(store);
    }

    private static Observed call(String path, String tool, Map<String, Object> arguments) {
        return client(path, c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)));
    }

    private static Observed client(String path, Function<McpSyncClient, Object> request) {
        return Clients.sdk(base, path, request);
    }

    /** A request sent as bytes, in a session of its own (or with a session id the server never gave). */
    private static Observed raw(String path, boolean inSession, String body) {
        return Clients.raw(base.resolve(path), inSession, body);
    }

    /** The measured side-by-side, for docs/guides/protect-an-official-sdk-server.md. */
    private static void table(Map<String, Observed> plain, Map<String, Observed> guarded) {
        String version = McpSchema.class.getPackage().getImplementationVersion();
        StringBuilder table = new StringBuilder("SDK " + version + "\n\n| failure | official SDK as it is | with WardenGuard |\n|---|---|---|\n");
        plain.forEach((name, seen) -> table.append("| ").append(name).append(" | ").append(seen.cell(180))
                .append(" | ").append(guarded.get(name).cell(180)).append(" |\n"));
        StringBuilder full = new StringBuilder();
        plain.forEach((name, seen) -> full.append("## ").append(name).append("\n\nas it is: ").append(seen)
                .append("\n\nguarded: ").append(guarded.get(name)).append("\n\n"));
        try {
            Files.writeString(Path.of("target", "side-by-side-" + version + ".md"), table);
            Files.writeString(Path.of("target", "side-by-side-" + version + "-full.md"), full);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
