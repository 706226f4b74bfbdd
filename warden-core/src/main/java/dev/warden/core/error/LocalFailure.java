package dev.warden.core.error;

/**
 * A request this side sent did not get an answer from the peer: it timed out, was cancelled here,
 * or the connection closed. Never an error the peer reported (that is {@link PeerErrorException}).
 */
public abstract sealed class LocalFailure extends WardenException
        permits RequestTimeoutException, RequestCancelledException, ConnectionClosedException,
        IncompatiblePeerException, AuthorizationFailedException, MessageTooLargeException {

    LocalFailure(String message) {
        super(message, null, true);
    }

    /** Without a stack trace where it says nothing (a timeout fires on the timer thread). */
    LocalFailure(String message, boolean withStackTrace) {
        super(message, null, withStackTrace);
    }

    LocalFailure(String message, Throwable cause) {
        super(message, cause, true);
    }
}
