package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.core.json.Json;
import dev.warden.e2e.OrdersSample.Framework;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The same "orders" server on Spring AI (@McpTool, @Tool) and on the Quarkus MCP server, driven by
 * the official TypeScript SDK client: for each seed failure, what the model receives, and what leaks.
 * The expectations are the table of docs/guides/sdk-comparison.md ({@link SdkComparisonTable}), so a
 * framework upgrade that changes an answer fails here until the guide says what it does now. The
 * Quarkus sample is built by scripts/sample-quarkus (not by the reactor); without it, its row is skipped.
 * The "+ hook" rows run the Spring AI sample with the prototype hook on (orders.springai.hook): the
 * hook receives the original exception, and nothing the seeds put in messages reaches the client.
 */
class SdkComparisonEndToEndTest {

    private static final Path GUIDE = OrdersSample.SAMPLES.resolveSibling("docs/guides/sdk-comparison.md");

    @ParameterizedTest
    @EnumSource(Framework.class)
    void eachSeedFailureReachesTheClientAsTheGuideSays(Framework framework) throws Exception {
        assumeTrue(Files.exists(framework.jar()), () -> framework.jar() + " is not built"
                + (framework.quarkus ? " (scripts/sample-quarkus builds it)" : ""));
        JsonNode received;
        try (OrdersSample sample = OrdersSample.start(framework)) {
            Processes.Result run = Processes.run(Processes.node("orders-client.mjs", sample.url()));
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            received = Json.mapper().readTree(run.stdout());
        }
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
}
