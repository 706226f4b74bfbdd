package dev.warden.gateway.internal.audit;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.incident.FailureNotice;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.RequestHandler;
import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.catalog.ToolCatalog;
import dev.warden.gateway.internal.metrics.GatewayMetrics;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * One audit record and one metrics sample per request, whatever its end; shared by all client
 * connections of a gateway, so a sink seen failing on one (a stateless request has a connection
 * of its own) keeps the next refused too. With fail-closed on, a request is refused while the
 * sink fails or the incident store cannot write, and its answer withheld (replaced by the
 * refusal) when recording it fails. A sink that keeps failing is logged once a minute
 * ({@link FailureNotice}), never once per request.
 */
public final class AuditTrail {

    private static final System.Logger LOG = System.getLogger(AuditTrail.class.getName());

    private final AuditSink sink;
    private final boolean failClosed;
    private final GatewayMetrics metrics;
    private final BooleanSupplier incidentsRecording;
    private final FailureNotice notice;
    /** What dates the records. How long a request took is measured on {@link System#nanoTime}: it decides nothing. */
    private final Clock clock;
    private volatile boolean broken;

    public AuditTrail(AuditSink sink, boolean failClosed, GatewayMetrics metrics) {
        this(sink, failClosed, metrics, () -> true, Clock.systemUTC());
    }

    /**
     * @param incidentsRecording whether the incident store keeps what it is given; with
     *     fail-closed, calls are refused while it does not
     * @param clock when failure notices are due, and when each record was made
     */
    public AuditTrail(AuditSink sink, boolean failClosed, GatewayMetrics metrics, BooleanSupplier incidentsRecording,
            Clock clock) {
        this.sink = sink;
        this.failClosed = failClosed;
        this.metrics = metrics;
        this.incidentsRecording = incidentsRecording;
        this.clock = clock;
        this.notice = new FailureNotice(LOG, "the audit log", clock, FailureNotice.DEFAULT_PERIOD);
    }

    /** Whether the incident store keeps incidents now; counted when it does not. */
    private boolean incidentsDown() {
        if (incidentsRecording.getAsBoolean()) {
            return false;
        }
        metrics.storeFailure("incidents");
        return true;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    /** Builds the record of a request once its end is known. */
    @FunctionalInterface
    public interface RecordMaker {
        AuditRecord make(Instant at, RequestContext ctx, JsonNode result, Throwable thrown, Duration took);
    }

    public JsonNode around(RequestContext ctx, RequestHandler handler, RecordMaker maker) throws Exception {
        if (failClosed && (broken || incidentsDown())) {
            // Refused; recording the refusal (here, and its incident where it is rendered) is also
            // how the gateway learns the sink and the store work again.
            ProtocolException refusal = refusal();
            AuditRecord refused = maker.make(clock.instant(), ctx, null, refusal, Duration.ZERO);
            metrics.request(refused);
            try {
                write(refused);
                broken = false;
                notice.succeeded();
            } catch (java.io.IOException | RuntimeException e) {
                metrics.storeFailure("audit");
                notice.failed(e);
            }
            throw refusal;
        }
        long start = System.nanoTime();
        JsonNode result = null;
        Throwable thrown = null;
        try {
            result = handler.handle(ctx);
        } catch (Throwable t) {
            thrown = t;
        }
        return ended(ctx, result, thrown, start, maker);
    }

    /** Whether a request would be refused now (fail-closed, and the sink failing): {@link #around} does that. */
    public boolean refusing() {
        return failClosed && (broken || !incidentsRecording.getAsBoolean());
    }

    /**
     * Records a request that ended, as {@link #around} does after its handler: the answer to send,
     * or the exception to answer with ({@code thrown}, or the refusal when fail-closed and the
     * record could not be written).
     *
     * @param start when handling began ({@link System#nanoTime})
     */
    public JsonNode ended(RequestContext ctx, JsonNode result, Throwable thrown, long start, RecordMaker maker)
            throws Exception {
        AuditRecord record = maker.make(clock.instant(), ctx, result, thrown,
                Duration.ofNanos(System.nanoTime() - start));
        metrics.request(record);
        try {
            write(record);
            broken = false;
            notice.succeeded();
        } catch (java.io.IOException | RuntimeException e) {
            broken = true;
            metrics.storeFailure("audit");
            notice.failed(e);
            if (failClosed) {
                throw refusal();
            }
        }
        if (thrown instanceof Exception e) {
            throw e;
        }
        if (thrown instanceof Error e) {
            throw e;
        }
        return result;
    }

    /**
     * Writes a record with the thread's interrupt put aside: a request its client cancelled has its
     * thread interrupted (to stop its work, which has stopped by now), and a sink that blocks (a
     * commit it waits for, an interruptible file channel) would take that for its own failure: the
     * cancelled request's record would be lost and, the sink seen failing, the next requests of
     * every client refused. The interrupt is restored once the record is written.
     */
    private void write(AuditRecord record) throws java.io.IOException {
        boolean interrupted = Thread.interrupted();
        try {
            sink.record(record);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ProtocolException refusal() {
        return ProtocolException.internal("The gateway cannot record requests right now (its audit log or incident store cannot write), and it is set to refuse what it cannot record",
                ErrorCode.BLOCKED);
    }

    /** The record of one request: what it asked of which upstream, and how it ended. */
    public static AuditRecord recordOf(Instant at, RequestContext ctx, JsonNode result, Throwable thrown, Duration took,
            String client, Naming naming, List<UpstreamLink> links, ToolCatalog tools) {
        Optional<String> upstream = Optional.empty();
        Optional<String> tool = Optional.empty();
        String name = ctx.params().map(p -> p.path("name").asString("")).orElse("");
        if (("tools/call".equals(ctx.method()) || "prompts/get".equals(ctx.method())) && !name.isEmpty()) {
            Optional<Naming.Target> target = naming.resolve(links, name);
            upstream = target.map(t -> t.link().name());
            tool = target.map(Naming.Target::name).filter(t -> "tools/call".equals(ctx.method()));
        } else if (links.size() == 1) {
            upstream = Optional.of(links.get(0).name());
        }
        AuditRecord.Outcome outcome = AuditRecord.Outcome.OK;
        Optional<String> code = Optional.empty();
        Optional<String> ref = Optional.empty();
        if (thrown != null) {
            outcome = thrown instanceof InterruptedException || ctx.cancelled() ? AuditRecord.Outcome.CANCELLED
                    : AuditRecord.Outcome.ERROR;
            if (thrown instanceof ProtocolException p) {
                code = Optional.of(p.symbolic().name());
                ref = p.ref().map(dev.warden.core.error.Ref::value);
            } else if (outcome == AuditRecord.Outcome.ERROR) {
                code = Optional.of(ErrorCode.INTERNAL_ERROR.name());
            }
        } else if (result != null && result.path("isError").asBoolean(false)) {
            outcome = AuditRecord.Outcome.TOOL_ERROR;
            JsonNode error = result.path("structuredContent").path("error");
            if (!error.isObject()) {
                try {
                    error = Json.mapper().readTree(result.path("content").path(0).path("text").asString("{}"))
                            .path("error");
                } catch (RuntimeException e) {
                    error = Json.object();
                }
            }
            code = Optional.of(error.path("code").asString("")).filter(c -> !c.isEmpty());
            ref = Optional.of(error.path("ref").asString("")).filter(r -> !r.isEmpty());
        }
        // A name the client made up is no tool of any upstream: it is not recorded as one (nor becomes a label).
        if (tool.isPresent() && !tools.listed(name)) {
            tool = Optional.of("(unknown)");
            upstream = links.size() == 1 ? upstream : Optional.empty();
        }
        return new AuditRecord(at, client, upstream, ctx.method(), tool, took, outcome, code, ref);
    }
}
