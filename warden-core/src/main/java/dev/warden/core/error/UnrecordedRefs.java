package dev.warden.core.error;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Refs whose incident could not be kept (the store's disk is full or read-only). A ref is handed
 * out so an operator can look it up; one that can never be found must not be, so the
 * {@link ErrorRenderer} leaves these out of what the peer sees (the code and message stay). A
 * store marks a ref here when its write fails, before the failure is rendered.
 *
 * <p>Process-wide, because every path that makes a ref (the boundary, the gateway's pipeline,
 * a window of refusals sharing one ref) renders through the one renderer; refs are random, so
 * two stores in one process never collide. Bounded: the newest {@link #CAPACITY} are kept, far
 * more than are rendered between a write and its answer.
 */
public final class UnrecordedRefs {

    public static final int CAPACITY = 4096;
    private static final ConcurrentHashMap<String, Boolean> SET = new ConcurrentHashMap<>();
    private static final ConcurrentLinkedQueue<String> ORDER = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger SIZE = new AtomicInteger();

    private UnrecordedRefs() {
    }

    /** The incident under {@code ref} was not kept anywhere an operator can look it up. */
    public static void mark(Ref ref) {
        Objects.requireNonNull(ref, "ref");
        if (SET.putIfAbsent(ref.value(), Boolean.TRUE) == null) {
            ORDER.add(ref.value());
            SIZE.incrementAndGet();
            while (SIZE.get() > CAPACITY) {
                String oldest = ORDER.poll();
                if (oldest == null) {
                    break;
                }
                SET.remove(oldest);
                SIZE.decrementAndGet();
            }
        }
    }

    public static boolean contains(Ref ref) {
        return SET.containsKey(ref.value());
    }
}
