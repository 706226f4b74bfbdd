package dev.warden.gateway.internal.limits;

import dev.warden.core.identity.Caller;

/**
 * Who a client is, for what the gateway keeps per client (its rate, its parked calls): never a
 * name it gives itself, nor its session (it could start another). The authenticated subject when
 * the transport knows one; else the network address it connects from.
 */
public sealed interface ClientKey {

    /**
     * An authenticated caller, by how it was established, who vouched for it and whom it speaks
     * for (the principal, all three): the same key from every address and session, whatever the
     * client calls itself.
     */
    record Subject(Caller.Kind kind, String issuer, String subject) implements ClientKey {
        public Subject {
            if (kind == null || issuer == null || subject == null || subject.isEmpty()) {
                throw new IllegalArgumentException("a kind, an issuer and a subject are needed");
            }
        }
    }

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
