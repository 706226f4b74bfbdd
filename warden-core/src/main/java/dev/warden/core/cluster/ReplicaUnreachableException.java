package dev.warden.core.cluster;

import dev.warden.core.error.TransportException;

/**
 * An ask to another replica got no answer: the bus could not send it, the replica is down, or it
 * did not answer in time. Stackless: the message names what failed, and no stack says more.
 */
public final class ReplicaUnreachableException extends TransportException {

    public ReplicaUnreachableException(String message) {
        super(message, null, false);
    }
}
