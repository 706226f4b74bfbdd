package dev.warden.audit;

import dev.warden.core.json.Json;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server written frame by frame, for what a real SDK would not do: leak, answer in the wrong shape,
 * never answer. It records every request it receives. A tool's behaviour returns the answer's body
 * ({@code {"result":…}} or {@code {"error":…}}), or empty to never answer.
 */
final class ScriptedServer {

    private record Tool(ObjectNode definition, Function<JsonNode, Optional<ObjectNode>> behaviour,
                        BiFunction<JsonNode, Runnable, Optional<ObjectNode>> reporting, boolean stops) {
    }

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final List<String> methods = Collections.synchronizedList(new ArrayList<>());
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private Function<String, ObjectNode> unknownTool = name -> error(-32602, "Unknown tool");
    private final List<ObjectNode> logs = new ArrayList<>();
    private final List<JsonNode> cancelled = Collections.synchronizedList(new ArrayList<>());
    private final List<JsonNode> progressTokens = Collections.synchronizedList(new ArrayList<>());
    private boolean answersCancelled;
    private String serverName = "scripted";
    /** Other methods (resources/…, prompts/…) and how each is answered, given the request's params. */
    private final Map<String, Function<JsonNode, ObjectNode>> handlers = new LinkedHashMap<>();
    private final List<String> capabilities = new ArrayList<>(List.of("tools"));
    /** How tools/list is answered, given the request's cursor; empty: every tool on one page. */
    private Optional<Function<Optional<String>, ObjectNode>> pages = Optional.empty();

    /** Answers a cancelled request anyway, as soon as the cancellation arrives (what the spec forbids). */
    ScriptedServer answersCancelled() {
        this.answersCancelled = true;
        return this;
    }

    ScriptedServer tool(String name, String inputSchema, Function<JsonNode, Optional<ObjectNode>> behaviour) {
        return tool(name, inputSchema, null, behaviour);
    }

    ScriptedServer tool(String name, String inputSchema, String annotations,
                        Function<JsonNode, Optional<ObjectNode>> behaviour) {
        ObjectNode definition = Json.object();
        definition.put("name", name);
        definition.set("inputSchema", Json.mapper().readTree(inputSchema));
        if (annotations != null) {
            definition.set("annotations", Json.mapper().readTree(annotations));
        }
        tools.put(name, new Tool(definition, behaviour, null, false));
        return this;
    }

    /** Gives an added tool a description (the folder it says it serves, say). */
    ScriptedServer describe(String name, String description) {
        tools.get(name).definition().put("description", description);
        return this;
    }

    /**
     * A tool that may report progress while it works: its behaviour gets the arguments and a
     * {@code progress} to run, which sends {@code notifications/progress} for the call's token.
     */
    ScriptedServer reportingTool(String name, String inputSchema,
                                 BiFunction<JsonNode, Runnable, Optional<ObjectNode>> behaviour) {
        tool(name, inputSchema, args -> Optional.empty());
        tools.put(name, new Tool(tools.get(name).definition(), null, behaviour, false));
        return this;
    }

    /** A tool whose every call ends the server: the connection closes, as when a process exits. */
    ScriptedServer stoppingTool(String name, String inputSchema) {
        tool(name, inputSchema, args -> Optional.empty());
        tools.put(name, new Tool(tools.get(name).definition(), null, null, true));
        return this;
    }

    /** The request id of every notifications/cancelled received, in order. */
    List<JsonNode> cancelled() {
        return List.copyOf(cancelled);
    }

    /** The _meta.progressToken of every tools/call received (missing when it had none), in order. */
    List<JsonNode> progressTokens() {
        return List.copyOf(progressTokens);
    }

    /**
     * Answers tools/list with {@code page} of the request's cursor (the result: its {@code tools}
     * and {@code nextCursor}) in place of every tool on one page: a server that pages for ever.
     */
    ScriptedServer pages(Function<Optional<String>, ObjectNode> page) {
        this.pages = Optional.of(page);
        return this;
    }

    /** How a call to a tool that does not exist is answered. */
    ScriptedServer unknownTool(Function<String, ObjectNode> answer) {
        this.unknownTool = answer;
        return this;
    }

    /** The serverInfo.name it initializes with. */
    ScriptedServer named(String name) {
        this.serverName = name;
        return this;
    }

    /** Answers {@code method} (and declares its capability, the method's first segment) with {@code answer} of its params. */
    ScriptedServer handles(String method, Function<JsonNode, ObjectNode> answer) {
        handlers.put(method, answer);
        String capability = method.substring(0, method.indexOf('/'));
        if (!capabilities.contains(capability)) {
            capabilities.add(capability);
        }
        return this;
    }

    /** A log notification sent before each answer to a tools/call. */
    ScriptedServer logs(ObjectNode data) {
        logs.add(data);
        return this;
    }

    /** Every method received, in order. */
    List<String> methods() {
        return List.copyOf(methods);
    }

    /** The name of every tool called, in order. */
    List<String> calls() {
        return List.copyOf(calls);
    }

    /**
     * The server on a transport that answers as it is written to, on the writer's thread: what a
     * tool does between its progress notifications (a test clock moved) happens before the audit
     * reads the next frame, so the audit's clock sees the call as the tool ran it.
     */
    Target directTarget() {
        return Target.of("scripted test server (direct)", () -> new Transport() {
            private Transport.Listener client;
            private boolean closed;

            @Override
            public void start(Transport.Listener listener) {
                this.client = listener;
            }

            @Override
            public void send(String frame) {
                if (closed) {
                    throw new dev.warden.core.transport.TransportClosedException("closed", null);
                }
                handle(new Out() {
                    @Override
                    public void send(String out) {
                        client.onFrame(out.getBytes(StandardCharsets.UTF_8));
                    }

                    @Override
                    public void close() {
                        closed = true;
                        client.onClose();
                    }
                }, frame);
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    client.onClose();
                }
            }
        });
    }

    /** Where the server writes: a transport's other end. */
    private interface Out {
        void send(String frame);

        void close();
    }

    Target target() {
        return Target.of("scripted test server", () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            InMemoryTransport server = pair.right();
            Out out = new Out() {
                @Override
                public void send(String frame) {
                    server.send(frame);
                }

                @Override
                public void close() {
                    server.close();
                }
            };
            server.start(new Transport.Listener() {
                @Override
                public void onFrame(byte[] frame) {
                    handle(out, new String(frame, StandardCharsets.UTF_8));
                }

                @Override
                public void onFrameError(dev.warden.core.error.ProtocolException error) {
                }

                @Override
                public void onClose() {
                }
            });
            return pair.left();
        });
    }

    static ObjectNode result(String json) {
        ObjectNode body = Json.object();
        body.set("result", Json.mapper().readTree(json));
        return body;
    }

    static ObjectNode isError(String text) {
        ObjectNode body = Json.object();
        ObjectNode result = body.putObject("result");
        result.putArray("content").addObject().put("type", "text").put("text", text);
        result.put("isError", true);
        return body;
    }

    static ObjectNode error(int code, String message) {
        ObjectNode body = Json.object();
        body.putObject("error").put("code", code).put("message", message);
        return body;
    }

    private void handle(Out server, String frame) {
        JsonNode message;
        try {
            message = Json.mapper().readTree(frame);
        } catch (RuntimeException e) {
            send(server, null, error(-32700, "Parse error"));
            return;
        }
        if (!(message instanceof ObjectNode request) || !request.path("method").isString()) {
            send(server, null, error(-32600, "Invalid request"));
            return;
        }
        String method = request.get("method").asString();
        JsonNode id = request.get("id");
        if (id == null) {
            if ("notifications/cancelled".equals(method)) {
                cancelled.add(request.path("params").path("requestId"));
            }
            if (answersCancelled && "notifications/cancelled".equals(method)) {
                send(server, request.path("params").path("requestId"), result("{\"content\":[]}"));
            }
            return; // a notification
        }
        if (!id.isString() && !id.isIntegralNumber()) {
            send(server, null, error(-32600, "Invalid request"));
            return;
        }
        methods.add(method);
        JsonNode params = request.path("params");
        switch (method) {
            case "initialize" -> {
                ObjectNode init = Json.object();
                init.put("protocolVersion", params.path("protocolVersion").asString("2025-06-18"));
                ObjectNode caps = init.putObject("capabilities");
                capabilities.forEach(caps::putObject);
                init.putObject("serverInfo").put("name", serverName).put("version", "1");
                send(server, id, Json.object().set("result", init));
            }
            case "ping" -> send(server, id, result("{}"));
            case "tools/list" -> {
                if (pages.isPresent()) {
                    JsonNode cursor = params.path("cursor");
                    send(server, id, Json.object().set("result", pages.get().apply(
                            cursor.isString() ? Optional.of(cursor.asString()) : Optional.empty())));
                    return;
                }
                ObjectNode list = Json.object();
                ArrayNode array = list.putArray("tools");
                tools.values().forEach(t -> array.add(t.definition()));
                send(server, id, Json.object().set("result", list));
            }
            case "tools/call" -> {
                String name = params.path("name").asString("");
                calls.add(name);
                progressTokens.add(params.path("_meta").path("progressToken"));
                Tool tool = tools.get(name);
                for (ObjectNode data : logs) {
                    ObjectNode note = Json.object();
                    note.put("jsonrpc", "2.0").put("method", "notifications/message");
                    note.putObject("params").put("level", "error").set("data", data);
                    server.send(note.toString());
                }
                if (tool == null) {
                    send(server, id, unknownTool.apply(name));
                } else if (tool.stops()) {
                    server.close();
                } else if (tool.reporting() != null) {
                    JsonNode token = params.path("_meta").path("progressToken");
                    int[] step = {0};
                    Runnable progress = () -> {
                        ObjectNode note = Json.object();
                        note.put("jsonrpc", "2.0").put("method", "notifications/progress");
                        note.putObject("params").put("progress", ++step[0]).set("progressToken", token);
                        server.send(note.toString());
                    };
                    tool.reporting().apply(params.path("arguments"), progress).ifPresent(body -> send(server, id, body));
                } else {
                    tool.behaviour().apply(params.path("arguments")).ifPresent(body -> send(server, id, body));
                }
            }
            default -> send(server, id, handlers.containsKey(method) ? handlers.get(method).apply(params)
                    : error(-32601, "Method not found"));
        }
    }

    private static void send(Out server, JsonNode id, ObjectNode body) {
        ObjectNode message = Json.object();
        message.put("jsonrpc", "2.0");
        message.set("id", id == null ? Json.mapper().getNodeFactory().nullNode() : id);
        message.setAll(body);
        server.send(message.toString());
    }
}
