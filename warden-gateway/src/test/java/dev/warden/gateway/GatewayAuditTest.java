package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** One audit record and one metrics sample per request; fail-closed refuses what cannot be recorded. */
class GatewayAuditTest {

    private final McpServer upstream = McpServer.builder("audited", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("ok").handler(c -> ToolResult.text("fine")).build())
            .tool(ToolSpec.builder("leaky").handler(c -> {
                throw new IllegalStateException("boom at /srv/app/Main.java:12 password=hunter2");
            }).build())
            .build();
    private final List<AuditRecord> records = new CopyOnWriteArrayList<>();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private volatile boolean sinkBroken;
    private Gateway gateway;
    private McpClient client;

    private void start(boolean failClosed) {
        Upstream u = Upstream.of("audited", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            upstream.connect(pair.right());
            return pair.left();
        });
        gateway = Gateway.builder().upstream(u).incidents(IncidentSink.all()).metrics(registry)
                .audit(r -> {
                    if (sinkBroken) {
                        throw new IOException("disk full");
                    }
                    records.add(r);
                }, failClosed).build();
        client = McpClient.builder("audit-test", "1").requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void everyRequestHasOneRecordNamingClientUpstreamToolAndOutcome() {
        start(false);
        client.callTool("ok", Json.object());
        AuditRecord call = records.stream().filter(r -> r.method().equals("tools/call")).findFirst().orElseThrow();
        assertThat(call.client()).startsWith("audit-test#");
        assertThat(call.upstream()).contains("audited");
        assertThat(call.tool()).contains("ok");
        assertThat(call.outcome()).isEqualTo(AuditRecord.Outcome.OK);
        assertThat(records).anyMatch(r -> r.method().equals("tools/list"));
    }

    @Test
    void aFailedCallsRecordCarriesTheCodeAndRefTheClientGot() {
        start(false);
        ToolCallResult result = client.callTool("leaky", Json.object());
        JsonNode error = Json.mapper().readTree(result.text()).get("error");
        AuditRecord call = records.stream().filter(r -> r.tool().equals(java.util.Optional.of("leaky")))
                .findFirst().orElseThrow();
        assertThat(call.outcome()).isEqualTo(AuditRecord.Outcome.TOOL_ERROR);
        assertThat(call.code()).contains(error.get("code").asString());
        assertThat(call.ref()).contains(error.get("ref").asString());
    }

    @Test
    void withFailClosedABrokenSinkRefusesCallsWithAClearError() {
        start(true);
        client.listTools();
        sinkBroken = true;
        assertThatThrownBy(() -> client.callTool("ok", Json.object())).isInstanceOf(PeerErrorException.class)
                .satisfies(e -> assertThat(((PeerErrorException) e).error().message()).contains("cannot record"));
        sinkBroken = false;
        // Refused once more while the gateway still holds the sink broken: that refusal is recorded,
        // which shows the sink works again, and the next call is served.
        assertThatThrownBy(() -> client.callTool("ok", Json.object())).isInstanceOf(PeerErrorException.class);
        assertThat(records.getLast().code()).contains("BLOCKED");
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }

    @Test
    void withoutFailClosedCallsAreServedWhileTheSinkIsBroken() {
        start(false);
        client.listTools();
        sinkBroken = true;
        assertThat(client.callTool("ok", Json.object()).text()).isEqualTo("fine");
    }

    @Test
    void metricsCountRequestsByToolAndOutcomeFindingsByCategoryAndBreakerStates() {
        start(false);
        client.callTool("ok", Json.object());
        client.callTool("leaky", Json.object());
        String scrape = registry.scrape();
        assertThat(scrape).contains("warden_gateway_requests_total{").contains("tool=\"ok\"").contains("outcome=\"OK\"")
                .contains("outcome=\"TOOL_ERROR\"");
        assertThat(scrape).contains("warden_gateway_request_duration_seconds_bucket");
        assertThat(scrape).contains("warden_gateway_breaker_state{upstream=\"audited\"} 0");
    }
}
