package dev.warden.audit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What an {@link AuditCheck} sees: what the server listed, as received.
 *
 * @param target       the server (its HTTP endpoint and headers, for HTTP checks)
 * @param server       the server's {@code serverInfo}, when it initialized
 * @param instructions the {@code instructions} of its initialize result, when it sent any
 * @param tools        each tool of {@code tools/list}, as the JSON object the server sent, in its order
 *                     (index i is {@code /tools/i} in a {@code definition:} location)
 * @param resources    each resource of {@code resources/list}, likewise; empty when it offers none
 * @param prompts      each prompt of {@code prompts/list}, likewise; empty when it offers none
 * @param dryRun       whether the audit is a dry run: a check that makes requests of its own makes none
 */
public record AuditContext(Target target, Optional<Report.ServerInfo> server, Optional<String> instructions,
                           List<JsonNode> tools, List<JsonNode> resources, List<JsonNode> prompts,
                           boolean dryRun) {

    public AuditContext {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(instructions, "instructions");
        tools = tools.stream().map(JsonNode::deepCopy).map(JsonNode.class::cast).toList();
        resources = resources.stream().map(JsonNode::deepCopy).map(JsonNode.class::cast).toList();
        prompts = prompts.stream().map(JsonNode::deepCopy).map(JsonNode.class::cast).toList();
    }
}
