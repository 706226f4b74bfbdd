package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.core.json.Json;
import dev.warden.e2e.OrdersSample.Framework;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import orders.desk.OrderDesk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The same "orders" server on the official MCP Java SDK (as it is and with WardenGuard), Spring AI
 * (@McpTool, @Tool, and with warden-spring-ai), the Quarkus MCP server and Warden's own SDK, driven by
 * the official TypeScript SDK client: for each seed failure, what the model receives, and what leaks.
 * The expectations are the table of docs/guides/sdk-comparison.md ({@link SdkComparisonTable}), so a
 * framework upgrade that changes an answer fails here until the guide says what it does now. The
 * Quarkus sample is built by scripts/sample-quarkus (not by the reactor); without it, its column is
 * skipped. Every server is started once, all at the same time (the JVMs' start-ups overlap).
 */
class SdkComparisonEndToEndTest {

    private static final Path GUIDE = OrdersSample.SAMPLES.resolveSibling("docs/guides/sdk-comparison.md");
    private static final Map<Framework, CompletableFuture<OrdersSample>> SERVERS = new EnumMap<>(Framework.class);
    private static ExecutorService starting;

    @BeforeAll
    static void startAll() {
        OrderDesk desk = OrdersSample.desk(); // creates the table before the processes race to
        starting = Executors.newCachedThreadPool();
        for (Framework framework : Framework.values()) {
            if (framework.available()) {
                SERVERS.put(framework, CompletableFuture.supplyAsync(() -> {
                    try {
                        return OrdersSample.start(framework, desk);
                    } catch (Exception e) {
                        throw new IllegalStateException(framework + " did not start", e);
                    }
                }, starting));
            }
        }
    }

    @AfterAll
    static void stopAll() throws Exception {
        for (CompletableFuture<OrdersSample> server : SERVERS.values()) {
            if (!server.isCompletedExceptionally()) {
                server.join().close();
            }
        }
        starting.close();
    }

    @ParameterizedTest
    @EnumSource(Framework.class)
    void eachSeedFailureReachesTheClientAsTheGuideSays(Framework framework) throws Exception {
        assumeTrue(framework.available(), () -> framework.jar().orElseThrow() + " is not built"
                + (framework.launch == OrdersSample.Launch.QUARKUS ? " (scripts/sample-quarkus builds it)" : ""));
        OrdersSample sample = SERVERS.get(framework).get(5, java.util.concurrent.TimeUnit.MINUTES); // a hang guard
        Processes.Result run = Processes.run(Processes.node("orders-client.mjs", sample.url()));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode received = Json.mapper().readTree(run.stdout());
        Path out = Path.of("target/sdk-comparison");
        Files.createDirectories(out);
        Files.writeString(out.resolve(framework.name() + ".json"), received.toPrettyString(), StandardCharsets.UTF_8);
        assertThat(received.at("/connect/ok").asBoolean()).as("connect: %s", received.get("connect")).isTrue();

        Map<SdkComparisonTable.Seed, SdkComparisonTable.Cell> measured = new EnumMap<>(SdkComparisonTable.Seed.class);
        for (SdkComparisonTable.Seed seed : SdkComparisonTable.Seed.values()) {
            measured.put(seed, SdkComparisonTable.Cell.of(seed, received.path("calls").path(seed.key)));
        }
        assertThat(measured).as("what %s sends (received: target/sdk-comparison/%s.json)", framework.title,
                framework.name()).isEqualTo(SdkComparisonTable.EXPECTED.get(framework));
    }

    @Test
    void theGuideShowsTheMeasuredTable() throws Exception {
        Path out = Path.of("target/sdk-comparison");
        Files.createDirectories(out);
        Files.writeString(out.resolve("table.md"), SdkComparisonTable.markdown());
        assertThat(Files.readString(GUIDE)).contains(SdkComparisonTable.markdown());
    }

    /** The guides' "Side by side" sections: the rows and columns that matter to their readers, as measured. */
    @Test
    void eachGuideShowsItsPartOfTheMeasuredTable() throws Exception {
        List<SdkComparisonTable.Seed> rows = List.of(SdkComparisonTable.Seed.NPE, SdkComparisonTable.Seed.SQL,
                SdkComparisonTable.Seed.PATH, SdkComparisonTable.Seed.VALIDATION);
        Map<String, List<Framework>> guides = Map.of(
                "write-a-server.md", List.of(Framework.OFFICIAL_SDK, Framework.SPRING_AI_MCP_TOOL, Framework.QUARKUS,
                        Framework.WARDEN),
                "spring-boot.md", List.of(Framework.SPRING_AI_MCP_TOOL, Framework.SPRING_AI_WARDEN, Framework.WARDEN),
                "protect-an-official-sdk-server.md", List.of(Framework.OFFICIAL_SDK, Framework.OFFICIAL_SDK_GUARDED),
                "protect-a-spring-ai-server.md", List.of(Framework.SPRING_AI_MCP_TOOL, Framework.SPRING_AI_TOOL,
                        Framework.SPRING_AI_WARDEN));
        Files.createDirectories(Path.of("target/sdk-comparison"));
        for (Map.Entry<String, List<Framework>> guide : guides.entrySet()) {
            String table = SdkComparisonTable.markdown(guide.getValue(), rows);
            Files.writeString(Path.of("target/sdk-comparison").resolve("side-by-side-" + guide.getKey()), table);
            assertThat(Files.readString(GUIDE.resolveSibling(guide.getKey()))).as(guide.getKey()).contains(table);
        }
    }
}
