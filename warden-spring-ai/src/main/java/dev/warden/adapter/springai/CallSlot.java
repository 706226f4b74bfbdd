package dev.warden.adapter.springai;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The original exception of the tool call running on this thread. Spring AI turns a tool method's
 * exception into text before the tool specification's handler returns; so the guarded handler opens
 * a slot, {@link CapturingAdvice} notes the method's exception in it (and rethrows it unchanged),
 * and the handler throws that original to Warden's guard when the handler's own outcome was made
 * from it. A sync server runs the handler and the method on one thread (the SDK's {@code fromSync}
 * calls both in one callable).
 */
final class CallSlot {

    private static final ThreadLocal<CallSlot> CURRENT = new ThreadLocal<>();

    /** Advised methods entered and not yet left: only the outermost one's failure is the call's. */
    private int depth;
    private Throwable original;

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
        CallSlot previous = CURRENT.get();
        CallSlot slot = new CallSlot();
        CURRENT.set(slot);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            if (slot.original != null && madeFrom(e, slot.original)) {
                throw Sneaky.<RuntimeException>raise(slot.original);
            }
            throw e;
        } finally {
            restore(previous);
        }
        if (slot.original != null && result instanceof McpSchema.CallToolResult r && Boolean.TRUE.equals(r.isError())) {
            throw Sneaky.<RuntimeException>raise(slot.original);
        }
        return result;
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
