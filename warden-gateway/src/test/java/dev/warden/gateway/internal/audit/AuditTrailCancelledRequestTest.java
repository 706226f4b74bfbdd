package dev.warden.gateway.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A request its client cancelled has its handler's thread interrupted; with a sink that waits for
 * its write to be acknowledged (PostgreSQL's commit, with fail-closed), that interrupt is the
 * client's, not the sink failing: the cancelled request's record is written, and the requests of
 * every other client that follow are served, not refused as unrecordable.
 */
class AuditTrailCancelledRequestTest {

    /** Like a fail-closed PostgreSQL audit log: each record waits for its acknowledgement, interruptibly. */
    private final List<AuditRecord> written = new CopyOnWriteArrayList<>();
    private final AuditSink acknowledged = record -> {
        try {
            Thread.sleep(Duration.ofMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the audit record was written");
        }
        written.add(record);
    };
    private final AuditTrail trail = new AuditTrail(acknowledged, true, GatewayMetrics.none());

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aCancelledRequestsRecordIsWrittenAndItsThreadStaysInterrupted() {
        Thread.currentThread().interrupt(); // the client's cancel reached the handler

        assertThatThrownBy(() -> trail.ended(request(1), null, new InterruptedException("cancelled"), System.nanoTime(),
                AuditTrailCancelledRequestTest::record)).isInstanceOf(InterruptedException.class);

        assertThat(written).extracting(AuditRecord::outcome).containsExactly(AuditRecord.Outcome.CANCELLED);
        assertThat(Thread.currentThread().isInterrupted()).as("the cancel still stops what follows").isTrue();
    }

    @Test
    void theRequestsAfterACancelledOneAreServedNotRefused() throws Exception {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> trail.ended(request(1), null, new InterruptedException("cancelled"), System.nanoTime(),
                AuditTrailCancelledRequestTest::record)).isInstanceOf(InterruptedException.class);
        Thread.interrupted(); // the next request runs on a thread of its own

        JsonNode answer = trail.around(request(2), ctx -> Json.object().put("ok", true),
                AuditTrailCancelledRequestTest::record);

        assertThat(answer.path("ok").asBoolean()).isTrue();
        assertThat(trail.refusing()).isFalse();
        assertThat(written).extracting(AuditRecord::outcome)
                .containsExactly(AuditRecord.Outcome.CANCELLED, AuditRecord.Outcome.OK);
    }

    private static AuditRecord record(java.time.Instant at, RequestContext ctx, JsonNode result, Throwable thrown,
            Duration took) {
        return new AuditRecord(at, "client#1", Optional.of("up"), ctx.method(), Optional.of("slow"), took,
                thrown == null ? AuditRecord.Outcome.OK : AuditRecord.Outcome.CANCELLED, Optional.empty(),
                Optional.empty());
    }

    private static RequestContext request(long id) {
        return new RequestContext() {
            @Override
            public RequestId id() {
                return RequestId.of(id);
            }

            @Override
            public String method() {
                return "tools/call";
            }

            @Override
            public Optional<JsonNode> params() {
                return Optional.empty();
            }

            @Override
            public Session session() {
                throw new UnsupportedOperationException("no session in this test");
            }

            @Override
            public boolean cancelled() {
                return id == 1;
            }

            @Override
            public void progress(double progress, OptionalDouble total, Optional<String> message) {
            }

            @Override
            public boolean closeStream() {
                return false;
            }
        };
    }
}
