package dev.warden.http.server.internal.stream;

/**
 * Where what a copy of a portable session sends outside any request goes when this replica has no
 * GET stream for it: to the replica that holds the client's GET stream ({@link SessionRelay} knows
 * which), rather than held here for a stream the client opened elsewhere. {@link #LOCAL}: held
 * here, as in one process.
 */
public interface GetRoute {

    /** Sent to the replica holding the session's GET stream; false if none is known (then it is held here). */
    boolean forward(String frame);

    /** The client opened its GET stream on this replica: the others now send here. */
    void opened();

    GetRoute LOCAL = new GetRoute() {
        @Override
        public boolean forward(String frame) {
            return false;
        }

        @Override
        public void opened() {
        }
    };
}
