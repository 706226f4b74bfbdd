package dev.warden.gateway.internal.call;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.identity.Caller;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A parked call's next round, as one replica hands it to the replica holding the call: the
 * client's request as it arrived (its id, its input responses, its envelope), and who sent it,
 * as the receiving replica established it, so the owner applies the same "same client" check it
 * applies to a round that reaches it directly. The caller's credential never travels (only what
 * the check and the access rules read: issuer, subject, client id, scopes, claims).
 *
 * @param forward this round's id among the asking replica's forwards (its progress and
 *     cancellation name it)
 * @param from the asking replica, where the round's progress goes
 * @param request the client's JSON-RPC request
 * @param address the client's network address, when it is what tells the client apart
 * @param caller the authenticated caller, when the request had one
 */
record ForwardedRound(String forward, String from, ObjectNode request, Optional<String> address,
                      Optional<Caller> caller) {

    ForwardedRound {
        Objects.requireNonNull(forward, "forward");
        ReplicaBus.word("from", from);
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(caller, "caller");
        caller = caller.map(Caller::withoutToken);
    }

    String write() {
        ObjectNode out = Json.object();
        out.put("f", forward);
        out.put("from", from);
        out.set("request", request);
        address.ifPresent(a -> out.put("address", a));
        caller.ifPresent(c -> out.set("caller", caller(c)));
        return Json.write(out);
    }

    /** The round in {@code body}; a malformed one fails (the asker then hears the owner could not answer). */
    static ForwardedRound read(String body) {
        JsonNode in = Json.mapper().readTree(body);
        if (!(in.get("request") instanceof ObjectNode request)) {
            throw new IllegalArgumentException("a forwarded round carries a request");
        }
        Optional<String> address = Optional.ofNullable(in.get("address")).filter(JsonNode::isString)
                .map(JsonNode::stringValue);
        Optional<Caller> caller = in.get("caller") instanceof ObjectNode c ? Optional.of(caller(c)) : Optional.empty();
        return new ForwardedRound(in.path("f").asString(""), in.path("from").asString(""), request, address, caller);
    }

    private static ObjectNode caller(Caller caller) {
        ObjectNode out = Json.object();
        out.put("subject", caller.subject());
        caller.clientId().ifPresent(id -> out.put("clientId", id));
        out.put("issuer", caller.issuer());
        ArrayNode scopes = out.putArray("scopes");
        caller.scopes().stream().sorted().forEach(scopes::add);
        out.set("claims", Json.tree(caller.claims()));
        out.put("kind", caller.kind().name());
        return out;
    }

    private static Caller caller(ObjectNode in) {
        List<String> scopes = new ArrayList<>();
        in.path("scopes").forEach(s -> scopes.add(s.asString("")));
        Map<String, Object> claims = new LinkedHashMap<>();
        if (in.get("claims") instanceof ObjectNode c) {
            for (Map.Entry<String, JsonNode> claim : c.properties()) {
                if (claim.getValue().isNull()) {
                    continue; // a caller's claims never hold null: none was sent
                }
                claims.put(claim.getKey(), Json.read(claim.getValue(), Object.class));
            }
        }
        return new Caller(in.path("subject").asString(""),
                Optional.ofNullable(in.get("clientId")).filter(JsonNode::isString).map(JsonNode::stringValue),
                in.path("issuer").asString(""), Set.copyOf(scopes), claims,
                Caller.Kind.valueOf(in.path("kind").asString("JWT")), Optional.empty());
    }
}
