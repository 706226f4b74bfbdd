package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.protocol.ServerHandshake;
import dev.warden.core.protocol.StatelessResults;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.call.UpstreamFailures;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.upstream.UpstreamLink;
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
 * the envelope every stateless result carries. How it is said is the core's ({@link ServerHandshake}).
 */
final class GatewayOffer {

    private final ConnectionLinks links;
    private final ClientProfile profile;

    GatewayOffer(ConnectionLinks links, ClientProfile profile) {
        this.links = links;
        this.profile = profile;
    }

    JsonNode initialize(RequestContext ctx) {
        ServerHandshake.firstOnly(profile.settled());
        JsonNode params = ctx.params().orElseGet(Json::object);
        // Unlike the SDK's server, a missing version is not refused: it is answered with the newest.
        ProtocolVersion version = ServerHandshake.agree(ctx, params.path("protocolVersion").asString(""));
        profile.initialized(params);
        // A connection of this client's own introduces itself as the client (see UpstreamLink#clientIs).
        links.all().forEach(link -> link.clientIs(params.path("clientInfo")));
        JsonNode result = ServerHandshake.initializeResult(version, offer(connectAll()));
        profile.settle();
        return result;
    }

    /** {@code server/discover}: every version, and what the upstreams offer (as initialize would say). */
    JsonNode discover(RequestContext ctx) {
        return ServerHandshake.discoverResult(offer(connectAll()));
    }

    /**
     * One upstream's capabilities, name and instructions as they are (its instructions cleaned);
     * several upstreams' capabilities merged, under the gateway's name, without instructions.
     */
    private ServerHandshake.Offer offer(List<McpClient> up) {
        if (!links.single()) {
            return new ServerHandshake.Offer(merged(up), GATEWAY, Optional.empty());
        }
        McpClient only = up.get(0);
        return new ServerHandshake.Offer(only.serverCapabilities(), only.serverInfo(),
                only.instructions().map(this::cleanInstructions));
    }

    private String cleanInstructions(String instructions) {
        return links.first().pipeline().cleanInstructions(instructions);
    }

    /**
     * Results of stateless requests carry what that version requires of every result: the result
     * type, the server's identity, and for cacheable ones a TTL (zero: the gateway cannot promise
     * an upstream's lists stay put) and a private scope.
     */
    JsonNode decorate(JsonRpcMessage.Request request, JsonNode result) {
        return StatelessResults.of(request, result, serverInfo());
    }

    /** The gateway's own name, when it stands for several upstreams. */
    private static final Implementation GATEWAY = Implementation.of("warden-gateway", "1");

    /** The name the gateway answers with: the upstream's when it stands alone, else its own. */
    private Implementation serverInfo() {
        if (links.single()) {
            Optional<McpClient> only = links.first().connected();
            if (only.isPresent()) {
                return only.get().serverInfo();
            }
        }
        return GATEWAY;
    }

    /** Every upstream, connected in parallel; one that cannot start is left out (and recorded), all failing fails initialize. */
    List<McpClient> connectAll() {
        List<UpstreamLink> all = links.all();
        List<CompletableFuture<Optional<McpClient>>> pending = new ArrayList<>();
        List<ErrorPipeline.Outcome> failures = new CopyOnWriteArrayList<>();
        for (UpstreamLink link : all) {
            CompletableFuture<Optional<McpClient>> f = new CompletableFuture<>();
            // connect records through this client's view of the pipeline: the incident of an
            // upstream that cannot start names the caller who met it, whatever thread it is on.
            Thread.ofVirtual().start(() -> f.complete(connect(link, failures)));
            pending.add(f);
        }
        List<McpClient> up = new ArrayList<>();
        for (CompletableFuture<Optional<McpClient>> f : pending) {
            f.join().ifPresent(up::add);
        }
        if (up.isEmpty() || links.single() && up.size() != 1) {
            ErrorPipeline first = profile.pipeline(links.first());
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
            failures.add(UpstreamFailures.unavailable(profile.pipeline(link), Lifecycle.INITIALIZE, Optional.empty(), e));
        } catch (RuntimeException e) {
            // Why (the program, its exit code and last stderr lines) is logged where it was launched.
            failures.add(profile.pipeline(link).local(Lifecycle.INITIALIZE, Optional.empty(), ErrorCode.UPSTREAM_ERROR,
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
