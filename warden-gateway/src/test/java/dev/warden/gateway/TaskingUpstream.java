package dev.warden.gateway;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.session.RequestContext;
import dev.warden.core.session.Session;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream that runs tool calls as tasks (MCP 2025-11-25), as the TypeScript SDK's in-memory
 * task store does over one connection: every task is everyone's, {@code tasks/list} pages two at a
 * time with the last task id as its cursor, an unknown id is -32602. Its tool {@code research}
 * finishes at once with a report on its {@code topic} (or a failure naming a server path when the
 * topic is {@code crash}); with {@code hold: true} it stays working until cancelled. Each task's
 * creation and cancellation is announced with {@code notifications/tasks/status}. Any other method {@code x/echo}
 * answers what it was sent. With {@code about: <taskId>} in its arguments, {@code research} first
 * logs and asks its client (elicitation) about that task, as a task's own questions are marked
 * ({@code related-task}), and reports the action answered or the error. {@link #storePerSession}
 * keeps a store and a {@code task-N} counter per session (a stdio server's process per connection).
 */
final class TaskingUpstream {

    private static final String RELATED = "io.modelcontextprotocol/related-task";

    private final Map<String, ObjectNode> tasks = new LinkedHashMap<>();
    private final Map<String, ObjectNode> results = new LinkedHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final List<Session> sessions = new ArrayList<>();

    /** Each session's own store and counter: equal task ids on different connections. */
    static Supplier<Transport> storePerSession(List<TaskingUpstream> made) {
        return () -> {
            TaskingUpstream one = new TaskingUpstream();
            synchronized (made) {
                made.add(one);
            }
            return one.connector().get();
        };
    }

    Supplier<Transport> connector() {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            Session[] self = new Session[1];
            self[0] = Session.builder(pair.right())
                    .onRequestInline("initialize", ctx -> initialize())
                    .onRequest("tools/list", ctx -> toolsList())
                    .onRequest("tools/call", ctx -> ctx.params().orElseGet(Json::object).path("arguments").has("about")
                            ? about(ctx, self[0]) : call(ctx, self[0]))
                    .onRequest("tasks/get", ctx -> task(ctx, "Failed to retrieve task: Task not found").deepCopy())
                    .onRequest("tasks/result", this::result)
                    .onRequest("tasks/list", this::list)
                    .onRequest("tasks/cancel", ctx -> cancel(ctx, self[0]))
                    .onRequest("x/echo", ctx -> ctx.params().orElseGet(Json::object))
                    .build();
            synchronized (sessions) {
                sessions.add(self[0]);
            }
            self[0].start();
            return pair.left();
        };
    }

    private static JsonNode initialize() {
        ObjectNode result = Json.object().put("protocolVersion", "2025-11-25");
        ObjectNode caps = result.putObject("capabilities");
        caps.putObject("tools");
        ObjectNode t = caps.putObject("tasks");
        t.putObject("list");
        t.putObject("cancel");
        t.putObject("requests").putObject("tools").putObject("call");
        result.putObject("serverInfo").put("name", "tasking").put("version", "1");
        return result;
    }

    /** The description its tool is listed with (a change shows against a pin). */
    private volatile String description = "Researches a topic.";
    /** How many tasks/list requests (pages) it was sent. */
    private final AtomicInteger pagesAsked = new AtomicInteger();

    void describe(String description) {
        this.description = description;
    }

    /** Its tools as it lists them now. */
    JsonNode toolsListed() {
        return toolsList().path("tools");
    }

    int pagesAsked() {
        return pagesAsked.get();
    }

    private JsonNode toolsList() {
        ObjectNode result = Json.object();
        ObjectNode tool = result.putArray("tools").addObject().put("name", "research").put("description", description);
        tool.putObject("inputSchema").put("type", "object");
        tool.putObject("execution").put("taskSupport", "optional");
        return result;
    }

    private synchronized JsonNode call(RequestContext ctx, Session session) {
        JsonNode params = ctx.params().orElseGet(Json::object);
        String topic = params.path("arguments").path("topic").asString("");
        ObjectNode outcome = Json.object();
        if ("crash".equals(topic)) {
            outcome.put("isError", true).putArray("content").addObject().put("type", "text")
                    .put("text", "Error: ENOENT: no such file or directory, open '/srv/research/private/keys.db'");
        } else {
            outcome.putArray("content").addObject().put("type", "text").put("text", "report on " + topic);
        }
        if (!params.has("task")) {
            return outcome;
        }
        String id = "task-" + next.incrementAndGet();
        boolean hold = params.path("arguments").path("hold").asBoolean(false);
        ObjectNode task = Json.object().put("taskId", id).put("status", hold ? "working" : "completed")
                .put("createdAt", "2026-01-01T00:00:00Z").put("lastUpdatedAt", "2026-01-01T00:00:00Z")
                .put("ttl", 60000).put("pollInterval", 1000);
        tasks.put(id, task);
        if (!hold) {
            results.put(id, outcome);
        }
        session.notify("notifications/tasks/status", task.deepCopy());
        ObjectNode created = Json.object();
        created.set("task", task.deepCopy());
        return created;
    }

    /** Logs and asks its client about a task, marked as that task's ({@code related-task}). */
    private static JsonNode about(RequestContext ctx, Session session) {
        String taskId = ctx.params().orElseThrow().path("arguments").path("about").asString("");
        ObjectNode log = Json.object().put("level", "info").put("data", "working on " + taskId);
        log.putObject("_meta").putObject(RELATED).put("taskId", taskId);
        session.notify("notifications/message", log);
        ObjectNode question = Json.object().put("message", "continue " + taskId + "?");
        question.putObject("requestedSchema").put("type", "object").putObject("properties");
        question.putObject("_meta").putObject(RELATED).put("taskId", taskId);
        String said;
        try {
            said = "answered " + session.request("elicitation/create", question).get().path("action").asString("");
        } catch (Exception e) {
            said = "refused";
        }
        ObjectNode outcome = Json.object();
        outcome.putArray("content").addObject().put("type", "text").put("text", said);
        return outcome;
    }

    private synchronized ObjectNode task(RequestContext ctx, String notFound) {
        ObjectNode task = tasks.get(ctx.params().map(p -> p.path("taskId").asString("")).orElse(""));
        if (task == null) {
            throw ProtocolException.invalidParams(notFound);
        }
        return task;
    }

    private synchronized JsonNode result(RequestContext ctx) {
        String id = task(ctx, "Task not found: " + ctx.params().orElseThrow().path("taskId").asString("")).path("taskId")
                .asString();
        ObjectNode result = results.get(id);
        if (result == null) {
            throw ProtocolException.invalidParams("Task " + id + " has no result stored");
        }
        ObjectNode copy = result.deepCopy();
        copy.putObject("_meta").putObject("io.modelcontextprotocol/related-task").put("taskId", id);
        return copy;
    }

    private synchronized JsonNode list(RequestContext ctx) {
        pagesAsked.incrementAndGet();
        List<String> ids = new ArrayList<>(tasks.keySet());
        String cursor = ctx.params().map(p -> p.path("cursor").asString("")).orElse("");
        int start = cursor.isEmpty() ? 0 : ids.indexOf(cursor) + 1;
        if (!cursor.isEmpty() && start == 0) {
            throw ProtocolException.invalidParams("Failed to list tasks: Invalid cursor: " + cursor);
        }
        ObjectNode page = Json.object();
        ArrayNode out = page.putArray("tasks");
        int end = Math.min(ids.size(), start + 2);
        for (String id : ids.subList(start, end)) {
            out.add(tasks.get(id).deepCopy());
        }
        if (end < ids.size()) {
            page.put("nextCursor", ids.get(end - 1));
        }
        return page;
    }

    private synchronized JsonNode cancel(RequestContext ctx, Session session) {
        ObjectNode task = task(ctx, "Task not found: " + ctx.params().orElseThrow().path("taskId").asString(""));
        if (!"working".equals(task.path("status").asString())) {
            throw ProtocolException.invalidParams("Cannot cancel task in terminal status: "
                    + task.path("status").asString());
        }
        task.put("status", "cancelled").put("statusMessage", "Client cancelled task execution.");
        session.notify("notifications/tasks/status", task.deepCopy());
        return task.deepCopy();
    }

    /** The status of a task as the upstream keeps it (whoever asks). */
    synchronized String status(String taskId) {
        return tasks.get(taskId).path("status").asString();
    }

    void close() {
        synchronized (sessions) {
            sessions.forEach(Session::close);
        }
    }
}
