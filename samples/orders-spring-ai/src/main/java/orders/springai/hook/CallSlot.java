package orders.springai.hook;

import java.util.Optional;

/**
 * The original exception of the tool call running on this thread. Spring AI's sync server calls the
 * tool specification's handler and the tool method on one thread, so the handler opens the slot, the
 * method's advice fills it, and the handler reads it after Spring AI has turned the exception into text.
 */
final class CallSlot {

    private static final ThreadLocal<Throwable[]> SLOT = new ThreadLocal<>();

    private CallSlot() {
    }

    static void open() {
        SLOT.set(new Throwable[1]);
    }

    /** False when no guarded handler opened a slot (the method was called some other way). */
    static boolean fill(Throwable original) {
        Throwable[] slot = SLOT.get();
        if (slot == null) {
            return false;
        }
        slot[0] = original;
        return true;
    }

    static Optional<Throwable> close() {
        Throwable[] slot = SLOT.get();
        SLOT.remove();
        return slot == null ? Optional.empty() : Optional.ofNullable(slot[0]);
    }
}
