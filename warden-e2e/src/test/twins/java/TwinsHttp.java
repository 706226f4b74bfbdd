import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Java HTTP twins of docs/audit-twins.md (the held-out set): the JDK's HTTP server and Jackson,
 * on 127.0.0.1 at a port of the OS's choosing (printed as "PORT n").
 * <ul>
 * <li>{@code sse}: vulnerable, only the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages;
 * /mcp is a 404); {@code --safe}, Streamable HTTP at /mcp. One harmless tool.
 * <li>{@code notes}: Streamable HTTP, two callers by API key ("Authorization: Bearer KEY");
 * vulnerable, any note by its id; {@code --safe}, another caller's note is not found.
 * </ul>
 */
public class TwinsHttp {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Map<String, String> CALLERS = Map.of("twin-key-alice-3f9a71", "alice", "twin-key-bob-8c2d44", "bob");
    static final Map<String, List<String>> NOTES = Map.of(
            "note-1001", List.of("alice", "Renewal quote for Initech: cnry_note_alice_71b4"),
            "note-2001", List.of("bob", "Salary review draft: cnry_note_bob_9e0a"));
    static final Map<String, BlockingQueue<String>> SESSIONS = new ConcurrentHashMap<>();
    static String mode;
    static boolean safe;

    public static void main(String[] args) throws Exception {
        mode = args[0];
        safe = List.of(args).contains("--safe");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", TwinsHttp::handle);
        server.start();
        System.out.println("PORT " + server.getAddress().getPort());
    }

    static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            boolean legacy = mode.equals("sse") && !safe;
            if (legacy && method.equals("GET") && path.equals("/sse")) {
                stream(exchange);
                return;
            }
            if (!method.equals("POST")) {
                send(exchange, legacy || !path.equals("/mcp") ? 404 : 405, "");
                return;
            }
            String caller = mode.equals("notes") ? CALLERS.get(bearer(exchange)) : "anyone";
            if (caller == null) {
                send(exchange, 401, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Unauthorized\"}}");
                return;
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (legacy) {
                String query = String.valueOf(exchange.getRequestURI().getQuery());
                BlockingQueue<String> session = SESSIONS.get(query.startsWith("sessionId=") ? query.substring(10) : "");
                if (!path.equals("/messages") || session == null) {
                    send(exchange, 404, "Not found");
                    return;
                }
                send(exchange, 202, "Accepted");
                String reply = reply(caller, body);
                if (reply != null) {
                    session.add(reply);
                }
                return;
            }
            if (!path.equals("/mcp")) {
                send(exchange, 404, "Not found");
                return;
            }
            String reply = reply(caller, body);
            send(exchange, reply == null ? 202 : 200, reply == null ? "" : reply);
        }
    }

    static String bearer(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        return header != null && header.startsWith("Bearer ") ? header.substring("Bearer ".length()) : "";
    }

    static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", body.startsWith("{") ? "application/json" : "text/plain");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    static void stream(HttpExchange exchange) throws IOException {
        String id = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        BlockingQueue<String> outbox = new LinkedBlockingQueue<>();
        SESSIONS.put(id, outbox);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            out.write(("event: endpoint\ndata: /messages?sessionId=" + id + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            while (true) {
                String reply = outbox.poll(15, TimeUnit.SECONDS);
                out.write((reply == null ? ": keep-alive\n\n" : "event: message\ndata: " + reply + "\n\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException gone) {
            // the client went away
        } finally {
            SESSIONS.remove(id);
        }
    }

    /** The JSON-RPC answer to one message, or null for a notification. */
    static String reply(String caller, String body) {
        JsonNode message;
        try {
            message = JSON.readTree(body);
        } catch (RuntimeException e) {
            return "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
        }
        if (!message.isObject() || !message.path("method").isString()) {
            return "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}";
        }
        if (!message.has("id")) {
            return null;
        }
        ObjectNode reply = JSON.createObjectNode().put("jsonrpc", "2.0");
        reply.set("id", message.get("id"));
        JsonNode params = message.path("params");
        ObjectNode result = JSON.createObjectNode();
        switch (message.get("method").asString()) {
            case "initialize" -> {
                result.put("protocolVersion", params.path("protocolVersion").asString("2025-06-18"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", mode.equals("sse") ? "acme-echo" : "acme-notes")
                        .put("version", "1.0.0");
            }
            case "ping" -> {
            }
            case "tools/list" -> {
                var tools = result.putArray("tools");
                if (mode.equals("sse")) {
                    tool(tools.addObject(), "twin_echo", "Repeats the text it is given.", "text");
                } else {
                    tool(tools.addObject(), "twin_list_notes", "Lists the ids of your notes.", null);
                    tool(tools.addObject(), "twin_get_note", "Returns one of your notes by its id (see twin_list_notes).",
                            "note_id");
                }
            }
            case "tools/call" -> {
                String name = params.path("name").asString("");
                JsonNode arguments = params.path("arguments");
                if (mode.equals("sse") && name.equals("twin_echo")) {
                    text(result, arguments.path("text").asString(""));
                } else if (mode.equals("notes") && name.equals("twin_list_notes")) {
                    text(result, String.join("\n", NOTES.entrySet().stream().filter(n -> n.getValue().get(0).equals(caller))
                            .map(Map.Entry::getKey).sorted().toList()));
                } else if (mode.equals("notes") && name.equals("twin_get_note")) {
                    List<String> note = NOTES.get(arguments.path("note_id").asString(""));
                    if (note == null || (safe && !note.get(0).equals(caller))) {
                        text(result, "No note with that id.").put("isError", true);
                    } else {
                        text(result, note.get(1));
                    }
                } else {
                    reply.putObject("error").put("code", -32602).put("message", "Unknown tool");
                    return JSON.writeValueAsString(reply);
                }
            }
            default -> {
                reply.putObject("error").put("code", -32601).put("message", "Method not found");
                return JSON.writeValueAsString(reply);
            }
        }
        reply.set("result", result);
        return JSON.writeValueAsString(reply);
    }

    static void tool(ObjectNode tool, String name, String description, String parameter) {
        ObjectNode schema = tool.put("name", name).put("description", description).putObject("inputSchema").put("type", "object");
        var properties = schema.putObject("properties");
        if (parameter != null) {
            properties.putObject(parameter).put("type", "string");
            schema.putArray("required").add(parameter);
        }
    }

    static ObjectNode text(ObjectNode result, String text) {
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }
}
