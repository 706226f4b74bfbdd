package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.StatelessResults;
import dev.warden.core.session.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the gateway says it is: {@code initialize} and {@code server/discover} answered with the
 * upstreams' capabilities (one upstream's as they are, several merged), connecting them first; and
 * the envelope every stateless result carries.
 */
final class Handshake {

    private final ConnectionLinks links;
    private final ClientProfile profile;

    Handshake(ConnectionLinks links, ClientProfile profile) {
        this.links = links;
        this.profile = profile;
    }

    JsonNode initialize(RequestContext ctx) {
        JsonNode params = ctx.params().orElseGet(Json::object);
        ProtocolVersion version = ProtocolVersion.negotiate(params.path("protocolVersion").asString(""));
        // As the SDK's server does: the downstream session takes batches in the versions that have them.
        ctx.session().allowBatches(version.allowsBatches());
        profile.initialized(params);
        // A connection of this client's own introduces itself as the client (see UpstreamLink#clientIs).
        links.all().forEach(link -> link.clientIs(params.path("clientInfo")));
        List<McpClient> up = connectAll();
        ObjectNode result = Json.object();
        result.put("protocolVersion", version.wire());
        if (links.single()) {
            McpClient only = up.get(0);
            result.set("capabilities", only.serverCapabilities());
            result.set("serverInfo", Json.tree(only.serverInfo()));
            only.instructions().ifPresent(i -> result.put("instructions", cleanInstructions(i)));
        } else {
            result.set("capabilities", merged(up));
            result.set("serverInfo", serverInfo());
        }
        return result;
    }

    /** {@code server/discover}: every version, and what the upstreams offer (as initialize would say). */
    JsonNode discover(RequestContext ctx) {
        List<McpClient> up = connectAll();
        ObjectNode result = Json.object();
        ProtocolVersion.supportedWire().forEach(result.putArray("supportedVersions")::add);
        ObjectNode caps = links.single() ? up.get(0).serverCapabilities().deepCopy() : merged(up);
        result.set("capabilities", caps);
        if (links.single()) {
            up.get(0).instructions().ifPresent(i -> result.put("instructions", cleanInstructions(i)));
        }
        return result;
    }

    private String cleanInstructions(String instructions) {
        return links.first().pipeline().cleanNotification(Json.mapper().getNodeFactory().stringNode(instructions))
                .asString("");
    }

    /**
     * Results of stateless requests carry what that version requires of every result: the result
     * type, the server's identity, and for cacheable ones a TTL (zero: the gateway cannot promise
     * an upstream's lists stay put) and a private scope.
     */
    JsonNode decorate(JsonRpcMessage.Request request, JsonNode result) {
        if (StatelessRules.envelopeVersion(request.params()).isEmpty() && !"server/discover".equals(request.method())) {
            return result;
        }
        return StatelessResults.decorate(request.method(), result, serverInfo());
    }

    /** The name the gateway answers with: the upstream's when it stands alone, else its own. */
    private JsonNode serverInfo() {
        if (links.single()) {
            Optional<McpClient> only = links.first().connected();
            if (only.isPresent()) {
                return Json.tree(only.get().serverInfo());
            }
        }
        return Json.object().put("name", "warden-gateway").put("version", "1");
    }

    /** Every upstream, connected in parallel; one that cannot start is left out (and recorded), all failing fails initialize. */
    List<McpClient> connectAll() {
        List<UpstreamLink> all = links.all();
        List<CompletableFuture<Optional<McpClient>>> pending = new ArrayList<>();
        List<ErrorPipeline.Outcome> failures = new CopyOnWriteArrayList<>();
        for (UpstreamLink link : all) {
            CompletableFuture<Optional<McpClient>> f = new CompletableFuture<>();
            // A thread of its own does not inherit who is being served: say it again, so the
            // incident of an upstream that cannot start names the caller who met it.
            Thread.ofVirtual().start(() -> {
                try {
                    f.complete(CallerIncidents.serving(profile.caller(), () -> connect(link, failures)));
                } catch (Exception e) { // connect catches every runtime failure: nothing is left to catch here
                    f.completeExceptionally(e);
                }
            });
            pending.add(f);
        }
        List<McpClient> up = new ArrayList<>();
        for (CompletableFuture<Optional<McpClient>> f : pending) {
            f.join().ifPresent(up::add);
        }
        if (up.isEmpty() || links.single() && up.size() != 1) {
            ErrorPipeline first = links.first().pipeline();
            // The ref the client gets is that of the incident that has the cause.
            throw first.rpcError(JsonRpcError.INTERNAL_ERROR, failures.isEmpty() ? first.local(Lifecycle.INITIALIZE,
                    Optional.empty(), ErrorCode.UPSTREAM_ERROR, "The upstream server could not be started.",
                    new IllegalStateException("no upstream could be started")) : failures.get(0));
        }
        return up;
    }

    /** {@code link}'s client, or empty after recording why it could not be started in {@code failures}. */
    private Optional<McpClient> connect(UpstreamLink link, List<ErrorPipeline.Outcome> failures) {
        try {
            return Optional.of(link.client(profile.upstreamCapabilities()));
        } catch (ConnectionSlots.AtCapacity e) {
            failures.add(UpstreamFailures.unavailable(link, Lifecycle.INITIALIZE, Optional.empty(), e));
        } catch (RuntimeException e) {
            // Why (the program, its exit code and last stderr lines) is logged where it was launched.
            failures.add(link.pipeline().local(Lifecycle.INITIALIZE, Optional.empty(), ErrorCode.UPSTREAM_ERROR,
                    "The upstream server could not be started.", e));
        }
        return Optional.empty();
    }

    /** What several upstreams offer together: a capability if any offers it. */
    private static ObjectNode merged(List<McpClient> up) {
        ObjectNode caps = Json.object();
        for (McpClient c : up) {
            ObjectNode theirs = c.serverCapabilities();
            for (String key : List.of("tools", "prompts", "resources", "logging", "completions")) {
                if (theirs.get(key) instanceof ObjectNode part) {
                    ObjectNode mine = caps.has(key) ? (ObjectNode) caps.get(key) : caps.putObject(key);
                    for (Map.Entry<String, JsonNode> flag : part.properties()) {
                        if (flag.getValue().asBoolean(false)) {
                            mine.put(flag.getKey(), true);
                        }
                    }
                }
            }
        }
        return caps;
    }
}
