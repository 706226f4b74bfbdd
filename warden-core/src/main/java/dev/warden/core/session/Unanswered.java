package dev.warden.core.session;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Messages received whose answer (if any) is not on the wire yet. When the peer's input ends the
 * session waits on {@link #awaitNone} for the last of them, so it closes the moment the last answer
 * is written (or at the drain deadline), not at the next poll.
 */
final class Unanswered {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition none = lock.newCondition();
    private int count;

    /** One more message is being handled. */
    void add() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** A message's answer has been written (or it needed none). */
    void answered() {
        lock.lock();
        try {
            if (--count == 0) {
                none.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    int count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every message received has been answered, for at most {@code timeout}; true if they all were. */
    boolean awaitNone(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (count > 0) {
                if (left <= 0) {
                    return false;
                }
                left = none.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
