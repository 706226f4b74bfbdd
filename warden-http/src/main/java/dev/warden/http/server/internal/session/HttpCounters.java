package dev.warden.http.server.internal.session;

import java.util.concurrent.atomic.LongAdder;

/** What the HTTP layer refused or took away from clients, counted for the server's metrics. */
public final class HttpCounters {

    final LongAdder sessionsOpened = new LongAdder();
    /** Idle sessions closed to make room for a new one at a cap. */
    final LongAdder sessionsEvicted = new LongAdder();
    /** Sessions closed after the idle timeout. */
    final LongAdder sessionsExpired = new LongAdder();
    /** Initializes refused: a cap reached and no session idle. */
    public final LongAdder sessionsRefused = new LongAdder();
    /** Event streams cut because their client stopped reading. */
    public final LongAdder streamsCut = new LongAdder();
    /** Log and progress notifications dropped for a client that read its stream slower than they came. */
    public final LongAdder notificationsDropped = new LongAdder();
    /** POSTs refused in a session: a duplicate id, too many requests in flight, a batch the version forbids. */
    public final LongAdder requestsRefused = new LongAdder();
    /** Sessions this replica did not know, restored from their sealed ids (portable sessions only). */
    final LongAdder sessionsRestored = new LongAdder();
    /** Sessions given a plain id although sessions are portable: their initialize was too large to seal. */
    final LongAdder sessionsNotPortable = new LongAdder();

    public long sessionsOpened() {
        return sessionsOpened.sum();
    }

    public long sessionsEvicted() {
        return sessionsEvicted.sum();
    }

    public long sessionsExpired() {
        return sessionsExpired.sum();
    }

    public long sessionsRefused() {
        return sessionsRefused.sum();
    }

    public long streamsCut() {
        return streamsCut.sum();
    }

    public long notificationsDropped() {
        return notificationsDropped.sum();
    }

    public long requestsRefused() {
        return requestsRefused.sum();
    }

    public long sessionsRestored() {
        return sessionsRestored.sum();
    }

    public long sessionsNotPortable() {
        return sessionsNotPortable.sum();
    }
}
