package dev.warden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code mcp.server.session.duration} and {@code mcp.client.session.duration}, by the conventions:
 * seconds from start to close, the channel's attributes, {@code error.type} only on an error, and
 * nothing for a connection that was no session.
 */
class SessionDurationTest {

    private final InMemoryOtel otel = new InMemoryOtel();
    private final AtomicLong nanos = new AtomicLong();
    private final McpTelemetry telemetry = McpTelemetry.custom().openTelemetry(otel.sdk).nanoClock(nanos::get).build();

    private HistogramPointData only(String metric) {
        MetricData data = otel.metric(metric).orElseThrow();
        assertThat(data.getUnit()).isEqualTo(McpNames.SECONDS);
        assertThat(data.getHistogramData().getPoints()).hasSize(1);
        return data.getHistogramData().getPoints().iterator().next();
    }

    @Test
    void aServerSessionIsTimedFromItsStartToItsClose() {
        McpSession session = telemetry.startServerSession();
        nanos.addAndGet(2_500_000_000L);
        session.end(Channel.stdio().withMcpProtocolVersion("2025-11-25"));

        HistogramPointData point = only(McpNames.SERVER_SESSION_DURATION);
        assertThat(point.getSum()).isEqualTo(2.5);
        assertThat(point.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo(McpNames.PIPE);
        assertThat(point.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo("2025-11-25");
        assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isNull();
        assertThat(point.getBoundaries()).isEqualTo(McpNames.DURATION_BUCKETS);
    }

    @Test
    void aClientSessionNamesItsServerAndItsErrorOnce() {
        McpSession session = telemetry.startClientSession();
        nanos.addAndGet(1_000_000_000L);
        Channel channel = Channel.http().withServer("mcp.example", 8443).withSession("the-raw-session-id");
        session.failed(channel, Outcome.Reason.CONNECTION_CLOSED);
        session.end(channel); // once only

        HistogramPointData point = only(McpNames.CLIENT_SESSION_DURATION);
        assertThat(point.getCount()).isEqualTo(1);
        assertThat(point.getAttributes().get(McpNames.SERVER_ADDRESS)).isEqualTo("mcp.example");
        assertThat(point.getAttributes().get(McpNames.SERVER_PORT)).isEqualTo(8443L);
        assertThat(point.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo("connection_closed");
        assertThat(point.getAttributes().get(McpNames.MCP_SESSION_ID)).isNull();
    }

    @Test
    void aConnectionThatWasNoSessionRecordsNothing() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        telemetry.startServerSession().endWhen(closed, Optional::empty);
        closed.complete(null);

        assertThat(otel.metric(McpNames.SERVER_SESSION_DURATION)).isEmpty();
    }

    @Test
    void aSessionEndsWhenItsConnectionCloses() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        telemetry.startServerSession().endWhen(closed, () -> Optional.of(Channel.stdio()));
        nanos.addAndGet(3_000_000_000L);
        closed.complete(null);

        assertThat(only(McpNames.SERVER_SESSION_DURATION).getSum()).isEqualTo(3.0);
    }
}
