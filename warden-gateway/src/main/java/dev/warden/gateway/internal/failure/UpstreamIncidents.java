package dev.warden.gateway.internal.failure;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.Ref;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.gateway.internal.limits.Guard;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one upstream's failures say to the operator: each incident drafted here with the full
 * detail (the original text, the cause, the gateway's reason) and recorded by core's recorder
 * ({@link ErrorBoundary}), which gives it its ref; a flood of refusals of one kind shares one
 * there. A broken store never changes what the client receives.
 */
final class UpstreamIncidents {

    private record RefusalKind(String method, Optional<String> tool, ErrorCode code) {
    }

    private final String upstream;
    private final ErrorBoundary recorder;
    /** Who the incidents are met by: the client connection's caller, in its view ({@link #servedTo}). */
    private final Supplier<Optional<Caller>> caller;

    UpstreamIncidents(String upstream, ErrorBoundary recorder) {
        this(upstream, recorder, Optional::empty);
    }

    private UpstreamIncidents(String upstream, ErrorBoundary recorder, Supplier<Optional<Caller>> caller) {
        this.upstream = upstream;
        this.recorder = recorder;
        this.caller = caller;
    }

    /**
     * These incidents as one client connection meets them: each carries its caller, read when it
     * is recorded. The recorder stays the upstream's, so its one window (a flood of one kind is one
     * incident) spans every client, as it did.
     */
    UpstreamIncidents servedTo(Supplier<Optional<Caller>> caller) {
        return new UpstreamIncidents(upstream, recorder, caller);
    }

    /**
     * What the gateway's refusals of this upstream's own requests become (a question it cannot
     * route): recorded in the gateway's incident store, so the ref the upstream sees resolves.
     */
    ErrorBoundary boundary() {
        return recorder;
    }

    /** A failure the upstream reported: the original as it said it, with what the sanitizer found in it. */
    Ref upstreamFailed(String method, Optional<String> tool, ErrorCode code, String original, List<Finding> findings,
            Optional<String> arguments) {
        return record((ref, now) -> withArguments(Incident.ofText(ref, now, code, method, tool,
                Optional.of(upstream), original, findings), arguments));
    }

    /**
     * A failure of the gateway's own making: recorded with its cause, and with what the upstream
     * said if an answer of its caused it (an initialize it refused), since the client gets only
     * the gateway's words and a {@link PeerErrorException}'s message names only the code.
     */
    Ref local(String method, Optional<String> tool, ErrorCode code, String trustedMessage, Throwable cause) {
        return record((ref, now) -> new Incident(ref, now, code, method, tool, Optional.of(upstream),
                saidIn(cause), List.of(), cause == null ? List.of() : Incident.chainOf(cause))
                .withReason(trustedMessage));
    }

    /** The upstream's own error in a cause chain (a few links deep at most), as it said it. */
    private static Optional<String> saidIn(Throwable cause) {
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof PeerErrorException peer) {
                return Optional.of(ErrorPipeline.Said.of(peer.error()).original());
            }
        }
        return Optional.empty();
    }

    /**
     * A call the gateway itself refused (a limit, an open breaker). A flood of refusals is one
     * event, not thousands: refusals of the same kind (method, tool, code) within a second share
     * one incident and ref (the audit log still has a line for each request).
     */
    Ref refused(String method, Optional<String> tool, Guard.Refusal refusal) {
        return recordOnce(new RefusalKind(method, tool, refusal.code()), (fresh, now) -> new Incident(
                fresh, now, refusal.code(), method, tool, Optional.of(upstream), Optional.empty(), List.of(),
                List.of()).withReason(refusal.reason()));
    }

    /**
     * A name the caller asked for that does not exist (an unknown tool), recorded under the name
     * as the operator may read it. Names asked for within a second share one incident each, so a
     * flood of guesses writes a bounded number of incidents a second.
     */
    Ref unknown(String method, String shown, Optional<String> arguments) {
        return recordOnce(new RefusalKind(method, Optional.of(shown), ErrorCode.NOT_FOUND), (fresh, now) ->
                withArguments(new Incident(fresh, now, ErrorCode.NOT_FOUND, method, Optional.of(shown),
                        Optional.of(upstream), Optional.empty(), List.of(), List.of())
                        .withReason("The client called a tool this upstream does not have (or that policy hides)."),
                        arguments));
    }

    /** A tool the upstream said it does not have, with what it said (recorded for this call alone). */
    Ref unknownSaid(String method, String shown, String original, Optional<String> arguments) {
        return record((ref, now) -> withArguments(Incident.ofText(ref, now, ErrorCode.NOT_FOUND, method,
                Optional.of(shown), Optional.of(upstream), original, List.of())
                .withReason("The upstream said it does not have the tool the client called."), arguments));
    }

    private Ref record(ErrorBoundary.Draft draft) {
        return recorder.record(withCaller(draft));
    }

    private Ref recordOnce(Object kind, ErrorBoundary.Draft draft) {
        return recorder.recordOnce(kind, withCaller(draft));
    }

    private ErrorBoundary.Draft withCaller(ErrorBoundary.Draft draft) {
        return (ref, now) -> {
            Incident incident = draft.at(ref, now);
            return caller.get().map(incident::withCaller).orElse(incident);
        };
    }

    private static Incident withArguments(Incident incident, Optional<String> arguments) {
        return arguments.map(incident::withArguments).orElse(incident);
    }
}
