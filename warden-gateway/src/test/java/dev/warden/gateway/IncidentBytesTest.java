package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.incident.JsonLinesIncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Limits;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one failing call costs on disk, as {@code warden wrap} and {@code warden gateway} write it:
 * the store's record and the stderr log's line. Was 898 + 898 bytes for this 280-byte error (6.4
 * times it: the whole record twice, findings naming every member); run with
 * {@code -Dtest=IncidentBytesTest} to see the figures.
 */
class IncidentBytesTest {

    /** What a Node server built on the TypeScript SDK answers when its handler throws a pg error. */
    static final String NODE_ERROR = "Error: connect ECONNREFUSED 10.20.0.7:5432\n"
            + "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)\n"
            + "    at Client._connectionCallback (/srv/app/node_modules/pg/lib/client.js:132:24)\n"
            + "    at /srv/app/dist/db.js:41:17 (postgres://app:s3cr3t-Pa55@db.internal:5432/orders)";

    @TempDir
    Path dir;

    @Test
    void aFailingCallIsWrittenOnceInFullAndOnceAsASummaryLine() throws Exception {
        McpServer server = McpServer.builder("db", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("query").handler(c -> ToolResult.text("never")).build()).build();
        int n = 200;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        try (FileIncidentStore store = FileIncidentStore.open(dir.resolve("incidents"))) {
            Upstream u = Upstream.builder("db", () -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                server.connect(pair.right());
                return new AnsweringCalls(pair.left(), Map.of("query", a -> AnsweringCalls.toolError(NODE_ERROR)),
                        new AtomicInteger());
            }).limits(Limits.ofDefaults().withBreaker(new Limits.Breaker(100, 1000, 1000, java.time.Duration.ofSeconds(1))))
                    .reconnect(ReconnectPolicy.none()).build();
            try (Gateway gateway = Gateway.builder().upstream(u)
                    .incidents(IncidentSink.all(store, JsonLinesIncidentSink.to(log, JsonLinesIncidentSink.Detail.SUMMARY)))
                    .build();
                 McpClient client = McpClient.builder("model", "1").protocolVersion(ProtocolVersion.latestSessionBased())
                         .connect(ViaGateway.to(gateway))) {
                for (int i = 0; i < n; i++) {
                    client.callTool("query", Json.object().put("sql", "SELECT * FROM orders WHERE id = " + i));
                }
            }
        }
        long stored;
        try (Stream<Path> files = Files.list(dir.resolve("incidents"))) {
            stored = files.mapToLong(p -> p.toFile().length()).sum();
        }
        long logged = log.size();
        System.out.printf("error text %d bytes; per incident: store %d, log %d, total %d%n", NODE_ERROR.length(),
                stored / n, logged / n, (stored + logged) / n);
        assertThat(stored / n).as("the store's record: the error once, in a bounded envelope")
                .isLessThan(NODE_ERROR.length() + 500L);
        assertThat(log.toString()).as("the log beside the store: nothing the upstream wrote")
                .doesNotContain("ECONNREFUSED").doesNotContain("db.internal");
    }
}
