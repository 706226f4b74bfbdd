package dev.warden.gateway.internal;

/**
 * Who a client is, for what the gateway keeps per client (its rate, its parked calls): never a
 * name it gives itself, nor its session (it could start another). An authenticated subject will be
 * one more kind; for now, the network address it connects from.
 */
sealed interface ClientKey {

    /** A client over the network, by its IP address. */
    record Address(String address) implements ClientKey {
        public Address {
            if (address == null || address.isEmpty()) {
                throw new IllegalArgumentException("an address is needed");
            }
        }
    }

    /**
     * A session-based connection that came without an address (stdio: {@code warden wrap}'s one
     * client; an in-process transport): the connection is all there is to tell it by.
     */
    record Connection(long number) implements ClientKey {
    }

    /**
     * Stateless requests that came without an address: nothing tells them apart, so they share
     * one key (each request has a connection of its own, which would otherwise start afresh).
     */
    record Unknown() implements ClientKey {
    }
}
