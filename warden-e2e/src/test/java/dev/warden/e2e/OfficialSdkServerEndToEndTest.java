package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.adapter.mcpsdk.sample.OrdersServer;
import dev.warden.adapter.mcpsdk.sample.SideBySide;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The official-SDK orders server (warden-mcp-sdk's sample), as it is and guarded by WardenGuard,
 * called by the official TypeScript SDK client: what most MCP hosts would show a model. Unguarded,
 * the tools' failures reach it as -32603 errors carrying the exception's text; guarded, as
 * {@code isError} results with Warden's code and a ref, nothing of the original but the trusted
 * failure's text.
 */
class OfficialSdkServerEndToEndTest {

    @TempDir
    static Path dir;

    private static SideBySide servers;

    /** Tool, arguments, and what the unguarded answer leaks. */
    private static final Map<String, String[]> SEEDS = Map.of(
            "order_status", new String[] {"{\"id\":7}", "Shipment"},
            "create_order", new String[] {"{\"id\":1}", "sdk_orders_pkey"},
            "order_total", new String[] {"{\"id\":1}", "totl_cents"},
            "invoice", new String[] {"{\"id\":1}", OrdersServer.UPSTREAM_TOKEN});

    @BeforeAll
    static void serve() throws Exception {
        servers = SideBySide.start(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        servers.close();
    }

    @Test
    void unguardedTheTypeScriptClientGetsTheExceptionGuardedWardensCodeAndRef() throws Exception {
        for (Map.Entry<String, String[]> seed : SEEDS.entrySet()) {
            JsonNode plain = call(SideBySide.PLAIN, seed.getKey(), seed.getValue()[0]);
            assertThat(plain.path("ok").asBoolean()).as(seed.getKey()).isFalse();
            assertThat(plain.path("error").path("code").asInt()).as(seed.getKey()).isEqualTo(-32603);
            assertThat(plain.path("error").path("message").asString()).as(seed.getKey()).contains(seed.getValue()[1]);

            JsonNode guarded = call(SideBySide.GUARDED, seed.getKey(), seed.getValue()[0]);
            JsonNode result = guarded.path("value");
            assertThat(result.path("isError").asBoolean()).as(seed.getKey() + ": " + guarded).isTrue();
            String text = result.path("content").path(0).path("text").asString();
            assertThat(guarded.toString()).as(seed.getKey()).doesNotContain(seed.getValue()[1], "Exception",
                    "sdk_orders", OrdersServer.UPSTREAM_HOST, "java.", "\\tat ");
            JsonNode error = Json.mapper().readTree(text).path("error");
            assertThat(error.path("code").asString()).isIn("INTERNAL_ERROR", "CONFLICT");
            assertThat(servers.incidents().find(new Ref(error.path("ref").asString()))).as(seed.getKey()).isPresent();
        }
        JsonNode trusted = call(SideBySide.GUARDED, "cancel_order", "{\"id\":1,\"reason\":\"oops\"}");
        assertThat(trusted.path("value").path("isError").asBoolean()).isTrue();
        assertThat(trusted.path("value").path("content").path(0).path("text").asString())
                .contains("VALIDATION_ERROR", "/reason: must be one of: customer_request, duplicate, fraud");
    }

    private static JsonNode call(String path, String tool, String arguments) throws Exception {
        Processes.Result result = Processes.run(Processes.node("call-tool.mjs", servers.base().resolve(path).toString(),
                tool, arguments));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode out = Json.mapper().readTree(result.stdout());
        assertThat(out.path("connect").path("ok").asBoolean()).as(result.stdout()).isTrue();
        return out.path("call");
    }
}
