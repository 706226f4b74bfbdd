package dev.warden.http.server.internal.seal;

import dev.warden.core.identity.Caller;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a portable session's id carries: what is fixed once it is initialized, so that a replica
 * that never saw the session can rebuild it. Who opened it (issuer and subject: only the same
 * principal may use it), and the client's initialize params (its version, capabilities and name),
 * replayed into the replica's server as the client sent them. Nothing that changes later.
 *
 * @param principal  kind, issuer and subject of who opened it; empty when the server authenticates nobody
 * @param initialize the params of the client's initialize request
 */
public record SealedSession(Optional<Principal> principal, ObjectNode initialize) {

    /** Who opened a session: the three fields {@link Caller#samePrincipal} compares. */
    record Principal(Caller.Kind kind, String issuer, String subject) {
        Principal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(subject, "subject");
        }
    }

    public SealedSession {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(initialize, "initialize");
    }

    public static SealedSession of(Optional<Caller> caller, Optional<JsonNode> params) {
        return new SealedSession(caller.map(c -> new Principal(c.kind(), c.issuer(), c.subject())),
                params.filter(ObjectNode.class::isInstance).map(p -> ((ObjectNode) p).deepCopy())
                        .orElseGet(Json::object));
    }

    /** Whether {@code requester} is who opened the session (nobody when nobody did), as {@code ownedBy} decides. */
    public boolean ownedBy(Optional<Caller> requester) {
        return principal.isEmpty() ? requester.isEmpty() : requester.isPresent()
                && principal.get().kind() == requester.get().kind()
                && principal.get().issuer().equals(requester.get().issuer())
                && principal.get().subject().equals(requester.get().subject());
    }

    public byte[] bytes() {
        ObjectNode node = Json.object();
        principal.ifPresent(p -> {
            node.put("knd", p.kind().name());
            node.put("iss", p.issuer());
            node.put("sub", p.subject());
        });
        node.set("init", initialize);
        return Json.write(node).getBytes(StandardCharsets.UTF_8);
    }

    /** Read back what {@link #bytes} wrote (authenticated by the seal, so well formed unless the format changed). */
    public static Optional<SealedSession> from(byte[] bytes) {
        try {
            JsonNode node = Json.mapper().readTree(bytes);
            if (!(node.get("init") instanceof ObjectNode init)) {
                return Optional.empty();
            }
            JsonNode iss = node.get("iss");
            JsonNode sub = node.get("sub");
            JsonNode kind = node.get("knd");
            if (iss == null && sub == null && kind == null) {
                return Optional.of(new SealedSession(Optional.empty(), init));
            }
            // Sealed before principals had a kind: nobody can be shown to be its owner.
            if (iss == null || !iss.isString() || sub == null || !sub.isString() || kind == null || !kind.isString()) {
                return Optional.empty();
            }
            return Optional.of(new SealedSession(Optional.of(new Principal(Caller.Kind.valueOf(kind.stringValue()),
                    iss.stringValue(), sub.stringValue())), init));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
