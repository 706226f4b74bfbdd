package dev.warden.gateway.internal.catalog;

import dev.warden.gateway.internal.upstream.ClientConnection;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.List;
import java.util.Optional;

/**
 * The upstreams one client connection uses, and how their names are exposed: per-client links
 * for a session, the gateway's shared ones once it turns out stateless (a stateless request owns
 * no upstream process).
 */
public final class ConnectionLinks {

    private final List<UpstreamLink> shared;
    private final Naming naming;
    /** Guards the move to the shared links only (registering and unregistering with them). */
    private final Object moving = new Object();
    private volatile List<UpstreamLink> current;

    /**
     * @param links the upstreams of this connection (a per-client upstream gets a link of its own)
     * @param shared the gateway's shared links, in the same order: what a stateless client uses,
     *     since its requests share no connection that could own an upstream process
     */
    public ConnectionLinks(List<UpstreamLink> links, List<UpstreamLink> shared, Naming naming) {
        if (links.isEmpty() || links.size() != shared.size()) {
            throw new IllegalArgumentException("a gateway needs at least one upstream, and a shared link for each");
        }
        this.current = List.copyOf(links);
        this.shared = List.copyOf(shared);
        this.naming = naming;
    }

    public List<UpstreamLink> all() {
        return current;
    }

    public UpstreamLink first() {
        return current.get(0);
    }

    public Naming naming() {
        return naming;
    }

    /** One upstream whose names are not prefixed: its answers pass as they are. */
    public boolean single() {
        return current.size() == 1 && !naming.prefixed();
    }

    /** The upstream and its own name for an exposed (maybe prefixed) name. */
    public Optional<Naming.Target> resolve(String exposed) {
        return naming.resolve(current, exposed);
    }

    public void register(ClientConnection connection) {
        current.forEach(l -> l.register(connection));
    }

    public void unregister(ClientConnection connection) {
        current.forEach(l -> l.unregister(connection));
    }

    /** A stateless request owns no upstream process: its connection moves to the shared links. */
    public void moveToShared(ClientConnection connection) {
        synchronized (moving) {
            if (!current.equals(shared)) {
                unregister(connection);
                current = shared;
                register(connection);
            }
        }
    }
}
