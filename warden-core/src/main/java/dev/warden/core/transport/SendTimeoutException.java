package dev.warden.core.transport;

/**
 * A frame found no room in the outgoing queue within the wait: the peer is not reading. The
 * transport stays open (a peer busy for a while may read again); this one frame is not sent.
 */
public final class SendTimeoutException extends TransportClosedException {
    public SendTimeoutException(String message) {
        super(message, null);
    }
}
