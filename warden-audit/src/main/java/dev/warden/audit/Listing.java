package dev.warden.audit;

import dev.warden.audit.internal.Pacer;
import dev.warden.audit.internal.ToolNames;
import dev.warden.client.McpClient;
import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the server listed, as it sent it, and how a run gets it: connect (the transport used said
 * when it is the older one), ask for every log level, list tools, resources, templates and prompts
 * within {@link Lister}'s bounds, and choose the tools that may be called.
 */
final class Listing {

    Optional<Report.ServerInfo> server = Optional.empty();
    Optional<String> instructions = Optional.empty();
    List<JsonNode> tools = List.of();
    List<JsonNode> resources = List.of();
    List<JsonNode> templates = List.of();
    List<JsonNode> prompts = List.of();
    /** How the tools listing ended; a server that offers no tools lists none, and that is its end. */
    Coverage.Listing toolsEnd = new Coverage.Listing.Ended();
    boolean offersResources;
    boolean offersPrompts;
    /** The listed tools that may be called (all, with --allow-destructive). */
    List<JsonNode> callable = List.of();

    /** Connects {@code line} to the audit's target and lists what it offers; what it could not do goes to {@code skipped}. */
    static Listing connect(Audit audit, Line line, Pacer pacer, FindingSet findings, ContentFindings content,
                           List<String> skipped) {
        Listing listing = new Listing();
        McpClient client;
        try {
            client = line.connect(audit.target());
        } catch (AuditException e) {
            throw e; // it says the likely cause already
        } catch (dev.warden.core.error.AuthorizationFailedException e) {
            // Its message is the client's own (the step that failed, never a token or the server's text).
            throw new AuditException("The server at " + audit.target().describe() + " refused the audit: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new AuditException("Could not connect to " + audit.target().describe() + " ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        if (line.transport() == TransportUsed.HTTP_SSE) {
            findings.add(Rule.LEGACY_TRANSPORT, Optional.empty(), "POST initialize (Streamable HTTP), then GET for "
                    + "an event stream (HTTP+SSE)", "transport", "The Streamable HTTP POST was refused (404 or 405); "
                    + "the server answered over the older HTTP+SSE transport, which the audit used");
        }
        listing.server = Optional.of(new Report.ServerInfo(client.serverInfo().name(), client.serverInfo().version()));
        listing.instructions = client.instructions();
        ObjectNode caps = client.serverCapabilities();
        listing.offersResources = caps.has("resources");
        listing.offersPrompts = caps.has("prompts");
        if (caps.has("logging") && pacer.take()) {
            // Log notifications are a side door: ask for all of them.
            try {
                client.request("logging/setLevel", Json.object().put("level", "debug"));
            } catch (RuntimeException e) {
                skipped.add("logging/setLevel refused: log notifications read at the server's own level");
            }
        }
        Lister lister = new Lister(line, pacer, findings, skipped);
        if (caps.has("tools")) {
            Lister.Listed tools = lister.list("tools/list", "tools");
            listing.tools = tools.items();
            listing.toolsEnd = tools.end();
        }
        listing.callable = callable(listing.tools, audit.allowDestructive(), skipped);
        content.tools(listing.tools.stream().map(t -> t.path("name").asString("")).toList());
        if (listing.offersResources) {
            listing.resources = lister.list("resources/list", "resources").items();
            listing.templates = lister.list("resources/templates/list", "resourceTemplates").items();
        }
        if (listing.offersPrompts) {
            listing.prompts = lister.list("prompts/list", "prompts").items();
        }
        return listing;
    }

    /** The tools that may be called; each other is listed in skipped with its reason. */
    private static List<JsonNode> callable(List<JsonNode> listed, boolean allowDestructive, List<String> skipped) {
        List<JsonNode> tools = new ArrayList<>();
        for (JsonNode tool : listed) {
            Optional<String> why = ToolNames.destructive(tool);
            if (why.isEmpty() || allowDestructive) {
                tools.add(tool);
            } else {
                skipped.add(tool.path("name").asString("") + ": not called, may change something (" + why.get()
                        + "; --allow-destructive)");
            }
        }
        return List.copyOf(tools);
    }
}
