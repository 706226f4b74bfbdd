package dev.warden.adapter.springai;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The original exception of the tool call running on this thread. Spring AI turns a tool method's
 * exception into text before the tool specification's handler returns; so the guarded handler opens
 * a slot, {@link CapturingAdvice} puts the method's exception in it, and the handler throws that
 * original to Warden's guard instead of returning Spring AI's text. A sync server runs the handler
 * and the method on one thread (the SDK's {@code fromSync} calls both in one callable).
 */
final class CallSlot {

    private static final ThreadLocal<CallSlot> CURRENT = new ThreadLocal<>();

    /** Advised methods entered and not yet left: only the outermost one's failure is the call's. */
    private int depth;
    private Throwable original;

    private CallSlot() {
    }

    /**
     * Runs {@code call} (Spring AI's handler) with a slot open, and throws the original exception
     * the tool method threw, if it threw; otherwise returns what {@code call} returned.
     */
    static <T> T around(Supplier<T> call) {
        CallSlot previous = CURRENT.get();
        CallSlot slot = new CallSlot();
        CURRENT.set(slot);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            if (slot.original == null) {
                throw e;
            }
            throw Sneaky.<RuntimeException>raise(slot.original);
        } finally {
            restore(previous);
        }
        if (slot.original != null) {
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

    /** Leaves an advised method; true when it was the outermost, whose failure this records. */
    boolean leave(Optional<Throwable> failure) {
        depth--;
        if (depth == 0 && failure.isPresent()) {
            original = failure.get();
            return true;
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
