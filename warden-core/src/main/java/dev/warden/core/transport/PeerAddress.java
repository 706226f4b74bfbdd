package dev.warden.core.transport;

/**
 * A transport that knows the network address its peer connects from (Streamable HTTP: the TCP
 * peer of the request that opened the session, or of the one stateless request). Unlike a name
 * the client gives itself, a client cannot choose it freely: limits are kept by it.
 */
public interface PeerAddress {

    /** The peer's IP address, as text ({@code 127.0.0.1}, {@code ::1}). */
    String peerAddress();

    /**
     * The peer's TCP port, when one connection is the peer's (a stateless request's); empty for a
     * session, whose POSTs may each come on a connection of their own.
     */
    default java.util.Optional<Integer> peerPort() {
        return java.util.Optional.empty();
    }
}
