package crm;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.function.Function;

/**
 * A small CRM written the way the SDK's README shows: tools declared with a JSON schema, the SDK's
 * own input validation on, business refusals returned as isError results, dependency failures left
 * to the SDK (the handler throws, as most hand-written servers do).
 */
public final class CrmServer {

    public static void main(String[] args) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Directory directory = new Directory();
        Services services = new Services(System.getenv());
        var server = McpServer.sync(new StdioServerTransportProvider(json))
                .serverInfo("acme-crm", "1.4.2")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .validateToolInputs(true)
                .tools(
                        tool(json, "register_user", "Register a new user account.", Schemas.REGISTER,
                                a -> directory.register((String) a.get("email"), (String) a.get("name"),
                                        (String) a.getOrDefault("plan", "free"))),
                        tool(json, "get_user", "Fetch a user by id (usr_ followed by digits).", Schemas.USER_ID,
                                a -> directory.describe((String) a.get("user_id"))),
                        tool(json, "change_plan", "Move a user to another plan.", Schemas.CHANGE_PLAN,
                                a -> directory.changePlan((String) a.get("user_id"), (String) a.get("plan"))),
                        tool(json, "enrich_company", "Look up a company by its web domain (enrichment API).",
                                Schemas.DOMAIN, a -> CallToolResult.builder()
                                        .addTextContent(services.enrich((String) a.get("domain"))).build()),
                        tool(json, "send_welcome_email", "Send the welcome email to a registered user.",
                                Schemas.USER_ID, a -> {
                                    Directory.User user = directory.find((String) a.get("user_id"));
                                    if (user == null) {
                                        return Directory.refusal("User " + a.get("user_id") + " not found");
                                    }
                                    return CallToolResult.builder()
                                            .addTextContent(services.sendWelcome(user.email())).build();
                                }))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(server::closeGracefully));
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String schema,
            Function<Map<String, Object>, CallToolResult> handler) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(json, schema).build())
                .callHandler((exchange, request) -> handler.apply(request.arguments()))
                .build();
    }
}
