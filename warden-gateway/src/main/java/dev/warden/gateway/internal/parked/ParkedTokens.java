package dev.warden.gateway.internal.parked;

import dev.warden.core.cluster.ReplicaBus;
import java.util.Optional;

/**
 * The request states of parked calls ({@link ParkedCall}): {@code warden-parked.} and an
 * unguessable token, which only the client it was handed to holds. Among several replicas the
 * token also names the replica that holds the call ({@code warden-parked.{replica}.{token}}), so
 * a next round that lands elsewhere is taken to it ({@link dev.warden.gateway.internal.call.ParkedForwarding}) rather than
 * refused or run again. The replica's name is no secret and grants nothing: the random part is
 * the capability, and the owner still checks that the round comes from the call's client.
 */
public final class ParkedTokens {

    private static final ParkedTokens LOCAL = new ParkedTokens(Optional.empty());

    private final Optional<String> replica;

    private ParkedTokens(Optional<String> replica) {
        this.replica = replica;
    }

    /** One process: the tokens name no replica (as they always did). */
    public static ParkedTokens local() {
        return LOCAL;
    }

    /** Tokens naming this replica of {@code bus}; {@link #local()} when the bus is {@link ReplicaBus#none()}. */
    public static ParkedTokens of(ReplicaBus bus) {
        return bus.alone() ? LOCAL : new ParkedTokens(Optional.of(ReplicaBus.word("replica id", bus.self())));
    }

    /** A fresh request state for a parked call of this replica. */
    String next() {
        return ParkedCall.PREFIX + replica.map(r -> r + ".").orElse("") + Tokens.random();
    }

    /**
     * The replica a request state names as holding its call: empty for one that names none (a
     * single process's, or not the gateway's at all). The random part is base64url, so the last
     * dot ends the replica's name (which may contain dots itself).
     */
    public static Optional<String> owner(String requestState) {
        if (!requestState.startsWith(ParkedCall.PREFIX)) {
            return Optional.empty();
        }
        String rest = requestState.substring(ParkedCall.PREFIX.length());
        int dot = rest.lastIndexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String replica = rest.substring(0, dot);
        return ReplicaBus.WORD.matcher(replica).matches() ? Optional.of(replica) : Optional.empty();
    }

    /** Whether {@code replica} is another one than this (a round for it is forwarded there). */
    public boolean elsewhere(String replica) {
        return this.replica.isPresent() && !this.replica.get().equals(replica);
    }
}
