package dev.warden.adapter.springai;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The original exception of the tool call running on this thread. Spring AI turns a tool method's
 * exception into text before the tool specification's handler returns; so the guarded handler opens
 * a slot, {@link CapturingAdvice} notes the method's exception in it (and rethrows it unchanged),
 * and the handler throws that original to Warden's guard when the handler's own outcome was made
 * from it. A sync server runs the handler and the method on one thread (the SDK's {@code fromSync}
 * calls both in one callable); an async method's {@code Mono} may fail on another, so the slot also
 * travels in Reactor's subscriber context ({@link #aroundAsync}, {@link #noting}).
 */
final class CallSlot {

    private static final ThreadLocal<CallSlot> CURRENT = new ThreadLocal<>();

    /** Advised methods entered and not yet left: only the outermost one's failure is the call's. */
    private int depth;
    /** Volatile: an async method fails on another thread than the one that reads it. */
    private volatile Throwable original;

    private CallSlot() {
    }

    /**
     * Runs {@code call} (Spring AI's handler, or an application's own) with a slot open. When an
     * advised method failed and the handler's outcome came from that failure (it threw it, threw an
     * exception caused by it or carrying its message, as Spring AI's {@code McpError} does, or
     * returned an {@code isError} tool result), the original is thrown instead. Any other outcome is
     * the handler's: a handler that caught the failure and answered has handled it.
     */
    static <T> T around(Supplier<T> call) {
        CallSlot slot = new CallSlot();
        T result;
        try {
            result = slot.on(call);
        } catch (RuntimeException | Error e) {
            throw Sneaky.<RuntimeException>raise(slot.outcome(e));
        }
        if (slot.answeredFrom(result)) {
            throw Sneaky.<RuntimeException>raise(slot.original);
        }
        return result;
    }

    /**
     * The same for an async handler, whose method may fail later on another thread: the slot is open
     * on the thread while the handler builds and subscribes its {@code Mono} (a method that throws
     * before it returns its own), and it is in the subscriber's context, where {@link #noting} finds it
     * when the method's {@code Mono} or {@code Flux} fails. The original replaces the outcome made from it.
     */
    static <T> Mono<T> aroundAsync(Supplier<Mono<T>> call) {
        return Mono.defer(() -> {
            CallSlot slot = new CallSlot();
            Mono<T> handled = Mono.from(subscriber -> slot.on(() -> {
                Mono.defer(call).subscribe(subscriber);
                return null;
            }));
            return handled.contextWrite(Context.of(CallSlot.class, slot))
                    .onErrorMap(slot::outcome)
                    .flatMap(result -> slot.answeredFrom(result) ? Mono.<T>error(slot.original) : Mono.just(result));
        });
    }

    /**
     * What an advised method returned, its failure noted (and passed on unchanged) in the slot its
     * subscriber's context holds, if any: a {@code Mono}, a {@code Flux}, or another publisher where
     * the method's declared type takes a {@code Flux}. Anything else is returned as it is.
     */
    static Object noting(Object returned, Class<?> declared) {
        return switch (returned) {
            case Mono<?> mono when declared.isAssignableFrom(Mono.class) -> mono.onErrorResume(
                    e -> Mono.deferContextual(context -> Mono.error(noted(context, e))));
            case Flux<?> flux when declared.isAssignableFrom(Flux.class) -> flux.onErrorResume(
                    e -> Flux.deferContextual(context -> Flux.error(noted(context, e))));
            case Publisher<?> other when declared.isAssignableFrom(Flux.class) -> Flux.from(other).onErrorResume(
                    e -> Flux.deferContextual(context -> Flux.error(noted(context, e))));
            case null, default -> returned;
        };
    }

    /** Notes a publisher's failure as the call's; the last to fail, the outermost, is the call's. */
    private static Throwable noted(ContextView context, Throwable failure) {
        context.getOrEmpty(CallSlot.class).ifPresent(slot -> ((CallSlot) slot).original = failure);
        return failure;
    }

    /** Runs {@code call} with this slot open on the thread. */
    private <T> T on(Supplier<T> call) {
        CallSlot previous = CURRENT.get();
        CURRENT.set(this);
        try {
            return call.get();
        } finally {
            restore(previous);
        }
    }

    /** The original when {@code thrown} was made from it, else {@code thrown}. */
    private Throwable outcome(Throwable thrown) {
        Throwable failure = original;
        return failure != null && madeFrom(thrown, failure) ? failure : thrown;
    }

    /** Whether the handler's result is the {@code isError} answer Spring AI made of the original. */
    private boolean answeredFrom(Object result) {
        return original != null && result instanceof McpSchema.CallToolResult r && Boolean.TRUE.equals(r.isError());
    }

    /** The slot of the tool call on this thread, if a guarded handler opened one. */
    static Optional<CallSlot> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    void enter() {
        depth++;
    }

    /** Leaves an advised method; the outermost one's failure is noted as the call's. */
    void leave(Optional<Throwable> failure) {
        depth--;
        if (depth == 0 && failure.isPresent()) {
            original = failure.get();
        }
    }

    /**
     * Whether {@code thrown} was made of {@code original}: it is the original or caused by it, or it
     * is Spring AI's {@code McpError} (built with no cause, its message from the original's chain).
     */
    private static boolean madeFrom(Throwable thrown, Throwable original) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t == original) {
                return true;
            }
        }
        return thrown instanceof McpError || carriesMessage(thrown, original);
    }

    /** Whether {@code thrown}'s message quotes the message of the original or of one of its causes. */
    private static boolean carriesMessage(Throwable thrown, Throwable original) {
        String text = Objects.toString(thrown.getMessage(), "");
        for (Throwable t = original; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank() && text.contains(message)) {
                return true;
            }
        }
        return false;
    }

    private static void restore(CallSlot previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** Rethrows a checked exception without wrapping it: the guard classifies the original. */
    private static final class Sneaky {
        private Sneaky() {
        }

        @SuppressWarnings("unchecked")
        static <E extends Throwable> E raise(Throwable t) throws E {
            throw (E) t;
        }
    }
}
