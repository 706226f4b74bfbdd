package dev.warden.http.server.internal.session;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this replica stops serving a portable session whose sealed id still opens: once its client
 * deleted it here (recorded by its id, which opens in one spelling only, so by the session's
 * identity; other replicas read the shared record), and once its seal's maximum age has passed,
 * for a copy already open as for one restored (a restore past it is refused by the seal).
 */
final class PortableLifetimes {

    /** As many as sessions may be open, the oldest forgotten first. */
    private final Map<String, Boolean> endedHere;
    private final Map<HttpSessionTransport, Long> notAfter = new ConcurrentHashMap<>();

    PortableLifetimes(int remembered) {
        this.endedHere = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > remembered;
            }
        };
    }

    /** The client deleted the session {@code id} here: not restored here again. */
    void ended(String id) {
        synchronized (endedHere) {
            endedHere.put(id, Boolean.TRUE);
        }
    }

    boolean endedHere(String id) {
        synchronized (endedHere) {
            return endedHere.containsKey(id);
        }
    }

    /** A copy opened (initialized or restored) from a sealed id that opens until {@code notAfterMillis}. */
    void opened(HttpSessionTransport copy, long notAfterMillis) {
        notAfter.put(copy, notAfterMillis);
    }

    /** The copy is gone from this replica. */
    void forgotten(HttpSessionTransport copy) {
        notAfter.remove(copy);
    }

    /** Whether the copy's sealed id would no longer open at {@code nowMillis}: it is served no more. */
    boolean pastMaxAge(HttpSessionTransport copy, long nowMillis) {
        Long until = notAfter.get(copy);
        return until != null && nowMillis > until;
    }
}
