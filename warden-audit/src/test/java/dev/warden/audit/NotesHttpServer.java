package dev.warden.audit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small notes server over HTTP, written for the audit's tests with the JDK's HttpServer: two API
 * keys ({@code X-API-Key}, or the {@code token} argument {@code login} gives for an account), each
 * its caller's notes, a note both see, {@code list_notes} and {@code get_note}. {@code vulnerable} serves any note to any key; safe serves a caller its own and
 * the shared one only. It speaks Streamable HTTP at {@code /mcp} (JSON answers), or, {@code legacy},
 * only the 2024-11-05 HTTP+SSE transport at {@code /sse} (its {@code /mcp} is a 404).
 */
final class NotesHttpServer implements AutoCloseable {

    static final String ALICE = "key-alice-7f3a";
    static final String BOB = "key-bob-91c2";
    private static final Map<String, String> OWNER = Map.of("n-101", ALICE, "n-102", ALICE, "n-201", BOB, "n-1", "");
    private static final Map<String, String> TEXT = Map.of("n-101", "Groceries: oat milk, lentils, saffron",
            "n-102", "Call the plumber about the boiler", "n-201", "Dentist on Friday at nine, bring the x-rays",
            "n-1", "Welcome to the notes service");

    private final HttpServer server;
    private final boolean vulnerable;
    private final boolean legacy;
    private final Map<Integer, OutputStream> streams = new ConcurrentHashMap<>();
    private final AtomicInteger sessions = new AtomicInteger();

    NotesHttpServer(boolean vulnerable, boolean legacy) throws IOException {
        this.vulnerable = vulnerable;
        this.legacy = legacy;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    URI mcp() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            serve(exchange);
        } catch (RuntimeException e) {
            exchange.sendResponseHeaders(400, -1); // a frame that is no JSON-RPC message, as SDKs answer it
            exchange.close();
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String key = Optional.ofNullable(exchange.getRequestHeaders().getFirst("X-API-Key")).orElse("");
        if (!legacy && path.equals("/mcp") && exchange.getRequestMethod().equals("POST")) {
            JsonNode request = Json.mapper().readTree(exchange.getRequestBody().readAllBytes());
            Optional<ObjectNode> answer = answer(request, key);
            if (answer.isEmpty()) {
                exchange.sendResponseHeaders(202, -1);
                exchange.close();
                return;
            }
            byte[] body = answer.get().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        } else if (legacy && path.equals("/sse") && exchange.getRequestMethod().equals("GET")) {
            int session = sessions.incrementAndGet();
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            streams.put(session, out);
            event(out, "endpoint", "/messages?sessionId=" + session);
        } else if (legacy && path.equals("/messages") && exchange.getRequestMethod().equals("POST")) {
            int session = Integer.parseInt(exchange.getRequestURI().getQuery().substring("sessionId=".length()));
            JsonNode request = Json.mapper().readTree(exchange.getRequestBody().readAllBytes());
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
            OutputStream out = streams.get(session);
            Optional<ObjectNode> answer = answer(request, ALICE);
            if (out != null && answer.isPresent()) {
                event(out, "message", answer.get().toString());
            }
        } else {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        }
    }

    private static void event(OutputStream out, String type, String data) throws IOException {
        synchronized (out) {
            out.write(("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private Optional<ObjectNode> answer(JsonNode request, String key) {
        if (!request.has("id")) {
            return Optional.empty();
        }
        ObjectNode answer = Json.object().put("jsonrpc", "2.0");
        answer.set("id", request.get("id"));
        ObjectNode result = answer.putObject("result");
        switch (request.path("method").asString("")) {
            case "initialize" -> {
                result.put("protocolVersion", request.path("params").path("protocolVersion").asString("2025-06-18"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "notes").put("version", "1.0.0");
            }
            case "tools/list" -> {
                ArrayNode tools = result.putArray("tools");
                ObjectNode login = tools.addObject().put("name", "login").put("description", "Logs in; gives a token.")
                        .putObject("inputSchema").put("type", "object");
                login.putObject("properties").putObject("username").put("type", "string");
                ((ObjectNode) login.get("properties")).putObject("password").put("type", "string");
                login.putArray("required").add("username").add("password");
                ObjectNode list = tools.addObject().put("name", "list_notes").put("description", "Lists your notes.")
                        .putObject("inputSchema").put("type", "object");
                list.putObject("properties").putObject("token").put("type", "string");
                ObjectNode get = tools.addObject().put("name", "get_note").put("description", "Reads one note.");
                ObjectNode schema = get.putObject("inputSchema").put("type", "object");
                schema.putObject("properties").putObject("note_id").put("type", "string");
                ((ObjectNode) schema.get("properties")).putObject("token").put("type", "string");
                schema.putArray("required").add("note_id");
            }
            case "tools/call" -> call(request.path("params"), key, result);
            case "ping" -> {
            }
            default -> {
                answer.remove("result");
                answer.putObject("error").put("code", -32601).put("message", "Method not found");
            }
        }
        return Optional.of(answer);
    }

    static final Map<String, String> ACCOUNTS = Map.of("alice", "pw-alice-1", "bob", "pw-bob-2");

    private void call(JsonNode params, String header, ObjectNode result) {
        String tool = params.path("name").asString("");
        String key = header.isEmpty() ? params.path("arguments").path("token").asString("") : header;
        if (tool.equals("login")) {
            String user = params.path("arguments").path("username").asString("");
            if (!params.path("arguments").path("password").asString("").equals(ACCOUNTS.get(user))) {
                result.put("isError", true);
                result.putArray("content").addObject().put("type", "text").put("text", "UNAUTHENTICATED: wrong account or password");
            } else {
                result.putArray("content").addObject().put("type", "text")
                        .put("text", Json.object().put("token", user.equals("alice") ? ALICE : BOB).toString());
            }
            return;
        }
        if (tool.equals("list_notes")) {
            ArrayNode notes = Json.mapper().createArrayNode();
            for (String id : List.of("n-1", "n-101", "n-102", "n-201")) {
                if (OWNER.get(id).isEmpty() || OWNER.get(id).equals(key)) {
                    notes.addObject().put("id", id).put("title", TEXT.get(id).split(" ")[0]);
                }
            }
            result.putArray("content").addObject().put("type", "text").put("text", notes.toString());
            return;
        }
        String id = params.path("arguments").path("note_id").asString("");
        String owner = OWNER.get(id);
        boolean readable = owner != null && (owner.isEmpty() || owner.equals(key) || vulnerable);
        if (tool.equals("get_note") && readable) {
            result.putArray("content").addObject().put("type", "text")
                    .put("text", Json.object().put("id", id).put("text", TEXT.get(id)).toString());
        } else {
            result.put("isError", true);
            result.putArray("content").addObject().put("type", "text").put("text", "NOT_FOUND: no such note");
        }
    }

    @Override
    public void close() {
        streams.values().forEach(out -> {
            try {
                out.close();
            } catch (IOException e) {
                // the client went first
            }
        });
        server.stop(0);
    }
}
