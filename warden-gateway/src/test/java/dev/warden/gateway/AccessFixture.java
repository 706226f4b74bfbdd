package dev.warden.gateway;

import dev.warden.client.McpClient;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Access;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two upstreams for the access rules' tests: {@code files} (tools {@code read}, {@code write};
 * resources {@code file:///public/a} and {@code file:///secret/b}; template {@code file:///docs/{name}};
 * prompts {@code summarize}, {@code confess}) and {@code ops} (tools {@code echo}, {@code reset}).
 * Clients see them prefixed: {@code files__read}, {@code ops__echo}.
 */
final class AccessFixture implements AutoCloseable {

    final Gateway gateway;
    private final List<McpClient> clients = new ArrayList<>();

    AccessFixture(Optional<Access> access) {
        Gateway.Builder b = Gateway.builder().incidents(IncidentSink.all())
                .upstream(Upstream.of("files", connector(files())))
                .upstream(Upstream.of("ops", connector(ops())));
        access.ifPresent(b::access);
        gateway = b.build();
    }

    static AccessFixture withRules(String... rules) {
        return new AccessFixture(Optional.of(Access.of(rules)));
    }

    private static McpServer files() {
        return McpServer.builder("files", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("read").handler(c -> ToolResult.text("contents")).build())
                .tool(ToolSpec.builder("write").handler(c -> ToolResult.text("written")).build())
                .resource(resource("file:///public/a"), (uri, vars) -> List.of(text(uri)))
                .resource(resource("file:///secret/b"), (uri, vars) -> List.of(text(uri)))
                .resourceTemplate(new Resources.Template("file:///docs/{name}", "docs", Optional.empty(),
                        Optional.empty(), Optional.empty()), (uri, vars) -> List.of(text(uri)))
                .prompt(prompt("summarize"))
                .prompt(prompt("confess"))
                .build();
    }

    private static McpServer ops() {
        return McpServer.builder("ops", "1.0.0").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("echo").handler(c -> ToolResult.text("echo")).build())
                .tool(ToolSpec.builder("reset").handler(c -> ToolResult.text("reset done")).build())
                .build();
    }

    private static Resources.Resource resource(String uri) {
        return new Resources.Resource(uri, uri.substring(uri.lastIndexOf('/') + 1), Optional.empty(), Optional.empty(),
                Optional.empty(), OptionalLong.empty());
    }

    private static Resources.Contents text(String uri) {
        return new Resources.TextContents(uri, Optional.of("text/plain"), "the text of " + uri);
    }

    private static PromptSpec prompt(String name) {
        return new PromptSpec(new Prompts.Prompt(name, Optional.empty(), Optional.empty(), List.of()),
                (args, input) -> new Prompts.GetResult(Optional.empty(), List.of(new Prompts.Message(Prompts.Role.USER,
                        Content.text("prompt " + name)))));
    }

    private static Supplier<dev.warden.core.transport.Transport> connector(McpServer server) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        };
    }

    /** A session-based client connected as {@code caller}. */
    McpClient as(Caller caller) {
        return track(AsCaller.sessionClient(gateway, caller, "c"));
    }

    /** A client on a connection nobody authenticated (stdio, loopback HTTP). */
    McpClient anonymous() {
        return track(McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway)));
    }

    private McpClient track(McpClient client) {
        clients.add(client);
        return client;
    }

    static List<String> tools(McpClient client) {
        return client.listTools().stream().map(t -> t.name()).sorted().toList();
    }

    static List<String> names(McpClient client, String method, String field, String key) {
        List<String> out = new ArrayList<>();
        client.request(method, Json.object()).path(field).forEach(i -> out.add(i.path(key).asString()));
        return out.stream().sorted().toList();
    }

    /** What a request was answered with, when it failed: code, message and Warden's symbolic code (refs differ). */
    static String failure(Runnable request) {
        try {
            request.run();
        } catch (PeerErrorException e) {
            return e.error().code() + " " + e.error().message() + " "
                    + e.error().data().map(d -> d.path("code").asString("")).orElse("");
        }
        return "answered";
    }

    static ObjectNode params(String key, String value) {
        ObjectNode p = Json.object();
        p.put(key, value);
        return p;
    }

    static JsonNode call(McpClient client, String tool) {
        ObjectNode p = params("name", tool);
        p.putObject("arguments");
        return client.request("tools/call", p);
    }

    @Override
    public void close() {
        clients.forEach(McpClient::close);
        gateway.close();
    }
}
