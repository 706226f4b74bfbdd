package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's console (issue 34) as an operator sees it: {@code warden gateway --console
 * 127.0.0.1:0} in front of a hand-written upstream whose tool is named {@code <script>alert(1)</script>}
 * and fails as leaky servers do; the official TypeScript SDK client calls it, successes and
 * failures; then Playwright drives Debian's Chromium (playwright-core, no browser of its own)
 * through every page. The charts render, the incident a client got a ref for opens from the
 * search box with its original, and nothing from a name runs. The screenshots stay in
 * target/console-e2e (console-tools.png is docs/console.png). Skipped where Chromium is not
 * installed, except in CI, which installs it.
 */
class ConsoleInChromiumEndToEndTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final String SCRIPT_TOOL = "<script>alert(1)</script>";
    static final String CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; "
            + "base-uri 'none'";

    @BeforeAll
    static void chromiumIsInstalled() {
        if (System.getenv("CI") != null) {
            assertThat(CHROMIUM).as("CI installs Debian's chromium (.ci/run)").isExecutable();
        }
        assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed at /usr/bin/chromium");
    }

    /** A gateway with its console on, and where each is served. */
    record Running(LinePeer peer, String mcp, String console) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            peer.destroy();
        }
    }

    static Running start(String extraYaml, String... args) throws Exception {
        Path dir = Files.createTempDirectory("warden-console-e2e");
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, """
                http: { port: 0 }
                %s
                upstreams:
                  shop:
                    command: [%s, %s]
                """.formatted(extraYaml, Processes.NODE, Processes.NODE_DIR.resolve("console-server.mjs")));
        return serve(config, dir, args);
    }

    /** {@code warden gateway} on {@code config} and data directory {@code dir}, its console on a free port. */
    static Running serve(Path config, Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "gateway", "--config",
                config.toString(), "--data-dir", dir.toString(), "--console", "127.0.0.1:0"));
        command.addAll(List.of(args));
        LinePeer peer = new LinePeer(command);
        String line = peer.nextLine(Duration.ofSeconds(60));
        assertThat(line).startsWith("warden gateway: serving 1 upstream(s) at http://");
        // The console starts before the MCP endpoint, and says where on stderr (flushed) first.
        String console = Files.readAllLines(peer.stderr).stream().filter(l -> l.startsWith("warden gateway: console at "))
                .findFirst().orElseThrow(() -> new AssertionError("no console line in " + peer.stderr))
                .substring("warden gateway: console at ".length()).strip();
        return new Running(peer, line.substring(line.indexOf("http://")).strip(), console);
    }

    static JsonNode node(String script, String... args) throws Exception {
        Processes.Result result = Processes.run(Processes.node(script, args));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    @Test
    void chartsRenderAnIncidentOpensByItsRefAndAToolNamedLikeAScriptRunsNothing() throws Exception {
        try (Running gateway = start("")) {
            JsonNode calls = node("console-calls.mjs", gateway.mcp());
            assertThat(calls.path("tools").toString()).contains("\"<script>alert(1)</script>\"");
            String ref = calls.path("results").get(3).path("result").path("structuredContent").path("error")
                    .path("ref").asString();
            assertThat(ref).as(calls.toString()).startsWith("ref_");

            Path shots = Path.of("target", "console-e2e").toAbsolutePath();
            Files.createDirectories(shots);
            JsonNode seen = node("console-browser.mjs", gateway.console(), ref, shots.toString());

            assertThat(seen.path("dialogs").size()).as("alert() dialogs: %s", seen).isZero();
            assertThat(seen.path("pageErrors").size()).as("page errors: %s", seen).isZero();
            assertThat(seen.path("consoleErrors").size()).as("console errors and CSP reports: %s", seen).isZero();
            for (String page : List.of("upstreams", "tools", "incidents", "incident", "audit", "pins")) {
                JsonNode p = seen.path("pages").path(page);
                assertThat(p.path("scripts").asInt(-1)).as(page + ": script elements").isZero();
                assertThat(p.path("handlers").asInt(-1)).as(page + ": event-handler attributes").isZero();
                assertThat(p.path("jsLinks").asInt(-1)).as(page + ": javascript: links").isZero();
                assertThat(p.path("images").asInt(-1)).as(page + ": images").isZero();
            }
            JsonNode upstreams = seen.path("pages").path("upstreams");
            assertThat(upstreams.path("status").asInt()).isEqualTo(200);
            assertThat(upstreams.path("csp").asString()).isEqualTo(CSP);
            assertThat(upstreams.path("rows").asInt()).isEqualTo(1);

            JsonNode tools = seen.path("pages").path("tools");
            assertThat(tools.path("charts").asInt()).as("two charts per tool called").isEqualTo(6);
            assertThat(tools.path("bars").asInt()).isPositive();
            assertThat(tools.path("lines").asInt()).isPositive();
            tools.path("sizes").forEach(area -> assertThat(area.asDouble()).as("a chart's drawn area").isPositive());
            assertThat(tools.path("titles").toString()).contains("shop / <script>alert(1)</script>", "shop / fail",
                    "shop / lookup");
            assertThat(tools.path("styled").asString()).as("the stylesheet coloured the bars").isEqualTo("rgb(45, 164, 78)");

            JsonNode incident = seen.path("pages").path("incident");
            assertThat(incident.path("url").asString()).endsWith("/incidents/" + ref);
            assertThat(incident.path("ref").asString()).isEqualTo(ref);
            assertThat(incident.path("original").asString()).as("the operator's view: the original the client never saw")
                    .contains("File \"/opt/app/<server>.py\", line 88", "psycopg2.OperationalError");
            assertThat(seen.path("pages").path("incidents").path("rows").asInt()).isEqualTo(3);
            assertThat(seen.path("pages").path("audit").path("rows").asInt()).isGreaterThanOrEqualTo(7);
            assertThat(seen.path("pages").path("upperCaseRef").path("url").asString()).as("a ref pasted in upper case")
                    .endsWith("/incidents/" + ref);
            JsonNode missing = seen.path("pages").path("missing");
            assertThat(missing.path("status").asInt()).isEqualTo(404);
            assertThat(missing.path("tab").asString()).as("the tab a missing incident highlights").isEqualTo("Incidents");
            assertThat(seen.path("widths").size()).as("pages measured").isEqualTo(6);
            seen.path("widths").properties().forEach(w -> assertThat(w.getValue().asInt()).as("%s: drawn width", w.getKey())
                    .isBetween(1, 1300));

            for (String shot : List.of("console-upstreams.png", "console-tools.png", "console-incident.png",
                    "console-audit.png")) {
                assertThat(Files.size(shots.resolve(shot))).as(shot).isGreaterThan(10_000);
            }
        }
    }

    @Test
    void behindTheGatewaysAuthOnlyTheAdminScopeReadsIt() throws Exception {
        GatewayApiKeysEndToEndTest.Minted ops = GatewayApiKeysEndToEndTest.mint("ops", "mcp:tools", "warden:admin");
        GatewayApiKeysEndToEndTest.Minted agent = GatewayApiKeysEndToEndTest.mint("agent", "mcp:tools");
        Path keys = Files.createTempDirectory("warden-console-keys").resolve("api-keys.yaml");
        Files.writeString(keys, "keys:\n" + ops.entry() + "\n" + agent.entry() + "\n");
        try (Running gateway = start("auth:\n  scopes: [mcp:tools]\n  apiKeys:\n    file: " + keys)) {
            HttpResponse<String> nobody = get(gateway.console(), "");
            assertThat(nobody.statusCode()).isEqualTo(401);
            assertThat(nobody.headers().firstValue("Content-Security-Policy")).contains(CSP);
            assertThat(get(gateway.console(), agent.key()).statusCode()).as("an MCP key without the admin scope")
                    .isEqualTo(403);
            HttpResponse<String> admin = get(gateway.console(), ops.key());
            assertThat(admin.statusCode()).isEqualTo(200);
            assertThat(admin.body()).contains("<table id=\"upstreams\"", ">shop</a>");
        }
    }

    static HttpResponse<String> get(String url, String apiKey) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (!apiKey.isEmpty()) {
            request.header("X-API-Key", apiKey);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
