package dev.warden.gateway;

import dev.warden.testkit.MutableClock;
import dev.warden.testkit.ReadOnlyDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.incident.JsonLinesIncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.gateway.internal.audit.AuditTrail;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A gateway whose incident store or audit log cannot write (a full or read-only disk): with
 * fail-closed off calls go on and no client is given a ref that cannot be looked up; with it on
 * they are refused with a clear error; either way the failure is logged once, not per call.
 */
class GatewayUnwritableStoresTest {

    private final McpServer upstream = McpServer.builder("db", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("leaky").handler(c -> {
                throw new IllegalStateException("boom at /srv/app/Main.java:12");
            }).build())
            .build();

    @TempDir
    Path tmp;

    private FileIncidentStore store;
    private final MutableClock storeClock = new MutableClock(java.time.Instant.parse("2026-11-01T00:00:00Z"));
    private Gateway gateway;
    private McpClient client;
    private volatile boolean auditBroken;
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (logged) {
                logged.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private void start(boolean failClosed) {
        Logger.getLogger(AuditTrail.class.getName()).addHandler(capture);
        store = FileIncidentStore.open(tmp.resolve("incidents"), FileIncidentStore.DEFAULT_SEGMENT_BYTES, false,
                dev.warden.core.segment.Retention.DEFAULT, storeClock);
        Upstream u = Upstream.of("db", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        });
        gateway = Gateway.builder().upstream(u)
                .incidents(IncidentSink.all(store, JsonLinesIncidentSink.to(new ByteArrayOutputStream(),
                        JsonLinesIncidentSink.Detail.SUMMARY)))
                .audit(r -> {
                    if (auditBroken) {
                        throw new IOException("No space left on device");
                    }
                }, failClosed).build();
        client = McpClient.builder("disk-test", "1").requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        Logger.getLogger(AuditTrail.class.getName()).removeHandler(capture);
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void withoutFailClosedAnUnwritableIncidentStoreLeavesCallsServedAndGivesNoRefThatCannotBeFound() throws Exception {
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.make(tmp.resolve("incidents"))) {
            start(false);
            assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
            ToolCallResult failed = client.callTool("leaky", Json.object());
            JsonNode error = Json.mapper().readTree(failed.text()).get("error");
            assertThat(failed.isError()).isTrue();
            assertThat(error.get("code").asString()).isNotEmpty();
            assertThat(error.has("ref")).as("a ref whose incident was not kept").isFalse();
            assertThatThrownBy(() -> client.callTool("no_such_tool", Json.object()))
                    .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                        assertThat(e.error().data().orElseThrow().get("code").asString()).isEqualTo("NOT_FOUND");
                        assertThat(e.error().data().orElseThrow().has("ref")).isFalse();
                    });
        }
        ToolCallResult again = client.callTool("leaky", Json.object());
        String ref = Json.mapper().readTree(again.text()).at("/error/ref").asString();
        assertThat(store.find(new dev.warden.core.error.Ref(ref))).isPresent();
    }

    @Test
    void withFailClosedAnUnwritableIncidentStoreRefusesCallsWithAClearErrorUntilItWritesAgain() throws Exception {
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.make(tmp.resolve("incidents"))) {
            start(true); // the store cannot open its segment: it starts not recording
            assertThatThrownBy(() -> client.callTool("ok", Json.object()))
                    .isInstanceOfSatisfying(PeerErrorException.class, e -> {
                        assertThat(e.error().message()).contains("cannot record");
                        assertThat(e.error().data().orElseThrow().get("code").asString()).isEqualTo("BLOCKED");
                    });
        }
        storeClock.advance(Duration.ofSeconds(1)); // the store tries its directory again when next asked
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }

    @Test
    void aBrokenAuditLogIsLoggedOnceNotOncePerCall() {
        start(false);
        client.listTools();
        auditBroken = true;
        for (int i = 0; i < 20; i++) {
            assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
        }
        List<LogRecord> errors;
        synchronized (logged) {
            errors = logged.stream().filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        }
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).getThrown()).isNull();
    }
}
