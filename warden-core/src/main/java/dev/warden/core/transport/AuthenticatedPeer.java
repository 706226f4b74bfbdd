package dev.warden.core.transport;

import dev.warden.core.identity.Caller;
import java.util.Optional;

/**
 * A transport that knows who its peer is (Streamable HTTP behind an authenticator: the caller who
 * opened the session, or who sent the one stateless request). Empty when the server authenticates
 * nobody (loopback, stdio).
 */
public interface AuthenticatedPeer {

    Optional<Caller> caller();
}
