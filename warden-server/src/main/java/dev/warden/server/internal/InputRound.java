package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestContext;
import dev.warden.server.InputContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One round of a request that may need input from the client (a tool call or a prompt). In
 * 2026-07-28 the answers are this retry's {@code inputResponses} plus those carried by a verified
 * {@code requestState}; what is still missing ends the round ({@link InputRequired}) and {@link
 * #inputRequired} builds the result that asks for it. In the session-based versions the client is
 * asked directly and the answer awaited.
 */
final class InputRound implements InputContext {

    private final RequestContext request;
    private final ConnectedClient client;
    private final RequestStates states;
    /** What a state is bound to: the method and the tool or prompt name, so it is not replayed elsewhere. */
    private final String binding;
    private final ObjectNode answers;
    /** The answers asked for so far this round: only these go into the next state. */
    private final ObjectNode used = Json.object();
    /** How many requests to the client this run has made (in 2026-07-28, the key of each). */
    private int requestsMade;

    InputRound(RequestContext request, ConnectedClient client, RequestStates states, String method, String name,
            ObjectNode params) {
        this.request = request;
        this.client = client;
        this.states = states;
        this.binding = method + '\u0000' + name;
        this.answers = Json.object();
        if (stateless()) {
            JsonNode state = params.get("requestState");
            if (state != null && state.isString()) {
                answers.setAll(states.verify(binding, state.stringValue()));
            }
            if (params.get("inputResponses") instanceof ObjectNode given) {
                answers.setAll(given);
            }
        }
    }

    private boolean stateless() {
        return client.versionOf(request).map(ProtocolVersion::stateless).orElse(false);
    }

    /** The result that asks for input: what is missing, and a signed state with what was given. */
    JsonNode inputRequired(InputRequired asked) {
        ObjectNode result = Json.object();
        result.put("resultType", "input_required");
        result.set("inputRequests", asked.inputRequests());
        result.put("requestState", states.sign(binding, used));
        return result;
    }

    @Override
    public ObjectNode input(String key, String method, ObjectNode params) throws Exception {
        ObjectNode ask = Json.object();
        ask.put("method", method);
        ask.set("params", params);
        return inputs(Map.of(key, ask)).get(key);
    }

    @Override
    public Map<String, ObjectNode> inputs(Map<String, ObjectNode> requests) throws Exception {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        if (!stateless()) {
            for (Map.Entry<String, ObjectNode> e : requests.entrySet()) {
                out.put(e.getKey(), requestClient(e.getValue().path("method").asString(""),
                        e.getValue().get("params") instanceof ObjectNode p ? p : Json.object()));
            }
            return out;
        }
        ObjectNode missing = Json.object();
        for (Map.Entry<String, ObjectNode> e : requests.entrySet()) {
            requireCapability(e.getValue().path("method").asString(""));
            if (answers.get(e.getKey()) instanceof ObjectNode given) {
                used.set(e.getKey(), given);
                out.put(e.getKey(), given);
            } else {
                missing.set(e.getKey(), e.getValue());
            }
        }
        if (!missing.isEmpty()) {
            throw new InputRequired(missing);
        }
        return out;
    }

    @Override
    public Optional<ObjectNode> clientCapabilities() {
        return client.capabilitiesOf(request).map(ObjectNode::deepCopy);
    }

    /**
     * A request to the client during this one, awaited; cancelled with it. 2026-07-28 has no
     * requests from server to client: there it becomes an input of this round, keyed by its place
     * among this run's requests, so the tool's re-run on the retry finds the answer where it asked.
     */
    ObjectNode requestClient(String method, ObjectNode params) throws Exception {
        if (stateless()) {
            return input("request-" + (++requestsMade), method, params);
        }
        requireCapability(method);
        return request.session().request(method, params).awaitObject("The request was cancelled");
    }

    /**
     * The client must have declared what a request to it needs: in 2026-07-28 that is the
     * version's -32021; before, a server bug (INTERNAL_ERROR with a ref).
     */
    private void requireCapability(String method) {
        Optional<String> capability = Lifecycle.capabilityFor(method);
        if (capability.isPresent()
                && client.capabilitiesOf(request).map(c -> c.get(capability.get())).isEmpty()) {
            if (stateless()) {
                throw ProtocolException.missingClientCapability(capability.get());
            }
            throw new IllegalStateException("the client did not declare the " + capability.get() + " capability");
        }
    }
}
