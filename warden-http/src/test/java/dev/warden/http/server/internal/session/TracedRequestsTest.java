package dev.warden.http.server.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.jsonrpc.RequestId;
import dev.warden.http.server.internal.request.TraceHeaders;
import dev.warden.http.server.internal.settings.ResumeWindow;
import dev.warden.http.server.internal.settings.SessionLimits;
import dev.warden.http.server.internal.stream.SseStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A session keeps the W3C trace context of each POST's requests while they are in flight, for the
 * server's spans, and not a moment longer: a long session holds no headers of answered requests.
 */
class TracedRequestsTest {

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private final HttpSessionTransport transport = new HttpSessionTransport("s1", "127.0.0.1",
            new ResumeWindow(Duration.ofSeconds(1), (delay, task) -> { }),
            new SessionLimits(new SseStream.Buffer(16, 65_536), 1 << 20, 8), InstantSource.system(),
            new HttpCounters(), Optional.empty(), "127.0.0.1", "s1");

    @Test
    void aRequestsTraceContextIsKeptWhileItIsInFlight() {
        RequestId id = RequestId.of(7);
        transport.openStream(List.of(id));
        transport.traced(List.of(id), new TraceHeaders(Map.of("traceparent", TRACEPARENT)));

        assertThat(transport.requestHeaders(id).flatMap(h -> h.header("TraceParent"))).contains(TRACEPARENT);
        assertThat(transport.requestHeaders(id).flatMap(h -> h.header("tracestate"))).isEmpty();
        assertThat(transport.requestHeaders(RequestId.of(8))).isEmpty();

        transport.requestEnded(id);
        assertThat(transport.requestHeaders(id)).isEmpty();
    }

    @Test
    void closingTheSessionDropsWhatWasKept() {
        RequestId id = RequestId.of("a");
        transport.openStream(List.of(id));
        transport.traced(List.of(id), new TraceHeaders(Map.of("traceparent", TRACEPARENT)));
        transport.close();
        assertThat(transport.requestHeaders(id)).isEmpty();
    }
}
