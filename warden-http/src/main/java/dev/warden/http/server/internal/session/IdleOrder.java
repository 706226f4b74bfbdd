package dev.warden.http.server.internal.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * Sessions by when they were last active, so that the idle one of longest standing is found
 * without looking at every session: a session flood at the cap makes room once per initialize, and
 * scans of every open session each time took two fifths of the gateway's CPU during 10,000
 * initializes. Busy sessions are still looked at one by one (set aside, then queued again), so
 * when every session at the cap is busy an initialize looks at each before it is refused.
 *
 * <p>A session's activity moves its {@code lastActive} forward without telling this queue, so each
 * entry holds the time it was queued with, never later than the session's own: an entry whose
 * time is behind is queued again at the session's time when it comes out. The first entry out
 * that is up to date is then the least recently active session of all. Entries of sessions gone
 * from {@code live} are dropped as they come out, and all at once when they outnumber the live.
 * Not thread-safe: its owner's lock guards it.
 */
final class IdleOrder {

    private record Entry(long at, HttpSessionTransport session) {
    }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));

    void add(HttpSessionTransport session) {
        queue.add(new Entry(session.lastActive(), session));
    }

    /**
     * The session last active longest ago among those {@code live} that are idle or already closed,
     * taken out of this queue (its owner forgets it); empty when every live session is busy.
     */
    Optional<HttpSessionTransport> takeOldestIdle(Predicate<HttpSessionTransport> live) {
        List<Entry> busy = new ArrayList<>();
        try {
            // Each pass either drops an entry, sets one aside or queues one again at a later time;
            // the bound only guards against a session touched on every single pass.
            for (int passes = 2 * queue.size() + 1; passes > 0 && !queue.isEmpty(); passes--) {
                Entry entry = queue.poll();
                HttpSessionTransport session = entry.session();
                if (!live.test(session)) {
                    continue;
                }
                long lastActive = session.lastActive();
                if (lastActive != entry.at()) {
                    queue.add(new Entry(lastActive, session));
                } else if (session.isClosed() || session.idle()) {
                    return Optional.of(session);
                } else {
                    busy.add(entry);
                }
            }
            return Optional.empty();
        } finally {
            queue.addAll(busy);
        }
    }

    /** Drops the entries of sessions no longer {@code live} once they outnumber the live ones. */
    void compact(int liveCount, Predicate<HttpSessionTransport> live) {
        if (queue.size() > 2 * liveCount + 16) {
            queue.removeIf(entry -> !live.test(entry.session()));
        }
    }
}
