package dev.warden.core.mcp;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** Records of the lifecycle: {@code initialize}, its result, and the capabilities both sides declare. */
public final class Lifecycle {

    public static final String INITIALIZE = "initialize";
    public static final String INITIALIZED = "notifications/initialized";

    private Lifecycle() {
    }

    /**
     * The client's {@code initialize} params. Capabilities stay a tree: they are open-ended and the
     * gateway must pass through capabilities it does not know.
     */
    public record InitializeParams(String protocolVersion, ObjectNode capabilities, Implementation clientInfo) {
        public InitializeParams {
            Objects.requireNonNull(protocolVersion, "protocolVersion");
            capabilities = capabilities == null ? dev.warden.core.json.Json.object() : capabilities;
            Objects.requireNonNull(clientInfo, "clientInfo");
        }
    }

    /**
     * The server's answer to {@code initialize}, built by {@code core.protocol.ServerHandshake}.
     * Capabilities stay a tree, as the client's do: a gateway passes through what its upstreams declare.
     */
    public record InitializeResult(String protocolVersion, ObjectNode capabilities, Implementation serverInfo,
                                   Optional<String> instructions) {
        public InitializeResult {
            Objects.requireNonNull(protocolVersion, "protocolVersion");
            Objects.requireNonNull(capabilities, "capabilities");
            Objects.requireNonNull(serverInfo, "serverInfo");
            instructions = Objects.requireNonNullElse(instructions, Optional.empty());
        }
    }

    public record ServerCapabilities(Optional<ListChanged> tools, Optional<ResourcesCapability> resources,
                                     Optional<ListChanged> prompts, Optional<ObjectNode> logging,
                                     Optional<ObjectNode> completions, Optional<ObjectNode> experimental) {
        public ServerCapabilities {
            tools = Objects.requireNonNullElse(tools, Optional.empty());
            resources = Objects.requireNonNullElse(resources, Optional.empty());
            prompts = Objects.requireNonNullElse(prompts, Optional.empty());
            logging = Objects.requireNonNullElse(logging, Optional.empty());
            completions = Objects.requireNonNullElse(completions, Optional.empty());
            experimental = Objects.requireNonNullElse(experimental, Optional.empty());
        }
    }

    public record ListChanged(boolean listChanged) {
    }

    public record ResourcesCapability(boolean subscribe, boolean listChanged) {
    }

    /**
     * The client capability a server-to-client request needs: sampling for
     * {@code sampling/createMessage}, elicitation for {@code elicitation/create}, roots for
     * {@code roots/list}; empty for any other method.
     */
    public static Optional<String> capabilityFor(String clientMethod) {
        return Optional.ofNullable(switch (clientMethod) {
            case "sampling/createMessage" -> "sampling";
            case "elicitation/create" -> "elicitation";
            case "roots/list" -> "roots";
            default -> null;
        });
    }
}
