package dev.warden.core.incident;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.InternalFailure;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.Ref;
import dev.warden.core.error.RefWindow;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.identity.Caller;
import java.lang.reflect.InvocationTargetException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The one recorder, and the one place a throwable becomes a failure the peer may see. Every
 * failure gets a {@link Ref} and an incident, written here and nowhere else (the gateway's
 * failures too, drafted by the gateway and recorded with {@link #record} and
 * {@link #recordOnce}); only system failures reach the {@link ErrorReporter}s.
 *
 * <p>Order of trust: a {@link ToolFailure} anywhere in the cause chain is the author's deliberate
 * answer and wins; then the classifiers (SQLSTATE mapping and the like); everything else is
 * {@link InternalFailure}, whose text never leaves this process except through the incident sink.
 */
public final class ErrorBoundary {

    private final List<FailureClassifier> classifiers;
    private final IncidentSink incidents;
    private final List<ErrorReporter> reporters;
    private final Clock clock;
    /**
     * Refusals of one kind within {@link #WINDOW} share an incident: protocol errors (codes and
     * message, all ours) and what callers of {@link #recordOnce} call one kind. The one window.
     */
    private final RefWindow<Object> refusals;

    /** Refusals of one kind within this window share one incident and its ref. */
    public static final Duration WINDOW = Duration.ofSeconds(1);
    /** The most kinds the window tells apart at once; past it, a kind may get one more incident. */
    private static final int MAX_KINDS = 1024;

    private ErrorBoundary(Builder builder) {
        this.classifiers = List.copyOf(builder.classifiers);
        this.incidents = builder.incidents;
        this.reporters = List.copyOf(builder.reporters);
        this.clock = builder.clock;
        this.refusals = new RefWindow<>(clock, WINDOW, MAX_KINDS);
    }

    /** A boundary like this one whose incidents go to {@code incidents} instead. */
    private ErrorBoundary(ErrorBoundary like, IncidentSink incidents) {
        this.classifiers = like.classifiers;
        this.incidents = incidents;
        this.reporters = like.reporters;
        this.clock = like.clock;
        this.refusals = new RefWindow<>(clock, WINDOW, MAX_KINDS);
    }

    /**
     * This boundary for a connection whose caller is known (an authenticated HTTP session): its
     * incidents carry the caller's principal (kind, issuer, subject) and client id, for the operator who looks a ref up;
     * what the peer sees is the same. {@code caller} is read when an incident is recorded (a
     * session's credentials may change; its principal does not).
     */
    public ErrorBoundary serving(Supplier<Optional<Caller>> caller) {
        IncidentSink stamped = new IncidentSink() {
            @Override
            public void record(Incident incident) {
                incidents.record(caller.get().map(c -> incident.withCaller(c)).orElse(incident));
            }

            @Override
            public boolean recording() {
                return incidents.recording();
            }
        };
        return new ErrorBoundary(this, stamped);
    }

    public static ErrorBoundary ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public CapturedFailure capture(Throwable thrown, FailureContext context) {
        Objects.requireNonNull(thrown, "thrown");
        Objects.requireNonNull(context, "context");
        ToolFailure failure = classify(thrown);
        Ref ref = Ref.random();
        Incident incident = new Incident(ref, clock.instant(), failure.code(), context.method(), context.tool(),
                Incident.chainOf(thrown));
        safely(() -> incidents.record(incident));
        if (failure.code().systemFailure()) {
            for (ErrorReporter reporter : reporters) {
                safely(() -> reporter.report(incident, thrown));
            }
        }
        return new CapturedFailure(failure, ref);
    }

    /**
     * The ref of a protocol error (the request refused as it stands: unknown method, bad params),
     * recorded like any failure so the ref the peer sees resolves. Refusals with the same codes
     * and message within a second share one incident: a peer repeating a bad request does not
     * fill the store. A ref already set in the error's data names an incident recorded where it
     * was raised, and is kept.
     */
    public Ref refusal(ProtocolException refused, FailureContext context) {
        return refusal(refused, context, "");
    }

    /**
     * {@link #refusal(ProtocolException, FailureContext)}, with why the request was refused in
     * Warden's own words for the operator (the codec's "jsonrpc is not \"2.0\"", say): trusted
     * text that never reaches the peer. Blank means none.
     */
    public Ref refusal(ProtocolException refused, FailureContext context, String reason) {
        Objects.requireNonNull(refused, "refused");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(reason, "reason");
        Optional<Ref> carried = refused.ref();
        if (carried.isPresent()) {
            return carried.get(); // recorded where it was raised
        }
        return refusals.refFor(refused.code() + " " + refused.symbolic() + " " + refused.getMessage() + " " + reason,
                (ref, now) -> safely(() -> incidents.record(new Incident(ref, now, refused.symbolic(),
                        context.method(), context.tool(), Incident.chainOf(refused)).withReason(reason))));
    }

    /**
     * An incident drafted where the failure was read (an upstream's original text and what the
     * sanitizer found in it, the gateway's reason), given its ref and time here.
     */
    @FunctionalInterface
    public interface Draft {
        Incident at(Ref ref, Instant time);
    }

    /** Records the drafted incident under a fresh ref, now; the ref the peer is given. */
    public Ref record(Draft draft) {
        Objects.requireNonNull(draft, "draft");
        Ref ref = Ref.random();
        Instant now = clock.instant();
        safely(() -> incidents.record(draft.at(ref, now)));
        return ref;
    }

    /**
     * Records the drafted incident once for failures of {@code kind} within {@link #WINDOW}: a
     * flood of refusals of one kind (a limit, a guessed tool name) is one incident and one ref,
     * not thousands. {@code kind} is built from trusted values (method, tool, code) and has
     * value equality (a record).
     */
    public Ref recordOnce(Object kind, Draft draft) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(draft, "draft");
        return refusals.refFor(kind, (ref, now) -> safely(() -> incidents.record(draft.at(ref, now))));
    }

    private ToolFailure classify(Throwable thrown) {
        Throwable root = unwrap(thrown);
        for (Throwable t = root; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ToolFailure failure) {
                return failure;
            }
        }
        for (FailureClassifier classifier : classifiers) {
            Optional<ToolFailure> classified = classifySafely(classifier, root);
            if (classified.isPresent()) {
                return classified.get();
            }
        }
        return new InternalFailure(root);
    }

    private static Optional<ToolFailure> classifySafely(FailureClassifier classifier, Throwable root) {
        try {
            return Objects.requireNonNullElse(classifier.classify(root), Optional.empty());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof ExecutionException || current instanceof CompletionException
                || current instanceof InvocationTargetException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static void safely(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException ignored) {
            // A broken sink or reporter must not change what the peer receives.
        }
    }

    public static final class Builder {
        private final List<FailureClassifier> classifiers = new ArrayList<>();
        private IncidentSink incidents = IncidentSink.stderr();
        private final List<ErrorReporter> reporters = new ArrayList<>();
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        public Builder classifier(FailureClassifier classifier) {
            classifiers.add(Objects.requireNonNull(classifier, "classifier"));
            return this;
        }

        public Builder incidents(IncidentSink sink) {
            this.incidents = Objects.requireNonNull(sink, "incidents");
            return this;
        }

        public Builder reporter(ErrorReporter reporter) {
            reporters.add(Objects.requireNonNull(reporter, "reporter"));
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public ErrorBoundary build() {
            return new ErrorBoundary(this);
        }
    }
}
