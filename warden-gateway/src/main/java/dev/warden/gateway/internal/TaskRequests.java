package dev.warden.gateway.internal;

import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's requests about tasks (MCP 2025-11-25: {@code tasks/get}, {@code tasks/result},
 * {@code tasks/list}, {@code tasks/cancel}), and the upstreams' {@code notifications/tasks/status}.
 * On an upstream shared between callers, a task is its creator's ({@link TaskOwners}): anyone
 * else naming it is answered exactly as for a task that never existed, lists show only the
 * caller's own, status news goes only to the connection that created it. A task stands for its
 * tool call: a caller who may no longer call the tool (access rules, pins, the tool's scopes) has
 * no such task, and its result is cleaned as the call's result would be. A dedicated upstream (a
 * client's own: {@code warden wrap}, {@code perClient}) has one client, whose every task it is;
 * requests about tasks the gateway did not see created pass there as they did.
 */
final class TaskRequests {

    /** How many pages of an upstream's task list are read for one {@code tasks/list}. */
    private static final int MAX_PAGES = 100;

    private final ConnectionLinks links;
    private final ClientProfile profile;
    private final UpstreamCalls calls;
    private final ToolCallFlow flow;
    private final CallerAccess access;
    private final TaskOwners owners;

    TaskRequests(ConnectionLinks links, ClientProfile profile, UpstreamCalls calls, ToolCallFlow flow,
            CallerAccess access, TaskOwners owners) {
        this.links = links;
        this.profile = profile;
        this.calls = calls;
        this.flow = flow;
        this.access = access;
        this.owners = owners;
    }

    /** A task this caller may name: where it runs, and its creation if the gateway saw it. */
    private record Found(UpstreamLink link, Optional<TaskOwners.Owned> owned) {
    }

    JsonNode get(RequestContext ctx) throws Exception {
        return status(ctx);
    }

    JsonNode cancel(RequestContext ctx) throws Exception {
        return status(ctx);
    }

    /**
     * {@code tasks/get} and {@code tasks/cancel}: the task as the upstream says it is now. A
     * dedicated upstream's answers (its errors too) pass as they did before the gateway knew tasks.
     */
    private JsonNode status(RequestContext ctx) throws Exception {
        Found found = find(ctx);
        calls.spendRate(found.link(), ctx);
        JsonNode answer = found.link().dedicated() ? calls.forward(found.link(), ctx, UpstreamCalls.params(ctx))
                : ask(found, ctx);
        return cleanTask(found.link().pipeline(), answer);
    }

    /** The task's result is its tool call's: cleaned (a failure sanitized, with a ref) as that call's would be. */
    JsonNode result(RequestContext ctx) throws Exception {
        Found found = find(ctx);
        calls.spendRate(found.link(), ctx);
        if (found.owned().isEmpty()) {
            return calls.forward(found.link(), ctx, UpstreamCalls.params(ctx));
        }
        TaskOwners.Owned owned = found.owned().get();
        JsonNode result = ask(found, ctx);
        Naming.Target target = new Naming.Target(found.link(), owned.tool());
        return flow.answer(target, owned.exposed(), ctx, flow.structured(owned.exposed()), List.of(),
                new UpstreamReply.Answered(result));
    }

    /**
     * The caller's own tasks. From a shared upstream, every page of its list is read and only the
     * caller's tasks kept, in one answer: the upstream's cursors name tasks (another caller's,
     * maybe), so none is handed on, and a cursor from the client is one the gateway never gave.
     */
    JsonNode list(RequestContext ctx) throws Exception {
        calls.spendRate(links.first(), ctx); // once, however many upstreams and pages it reads
        if (links.all().size() == 1 && links.first().dedicated()) {
            UpstreamLink link = links.first();
            JsonNode page = calls.forward(link, ctx, UpstreamCalls.params(ctx));
            return withTasks(page, link, false);
        }
        if (!ctx.params().map(p -> p.path("cursor").asString("")).orElse("").isEmpty()) {
            throw ProtocolException.invalidParams("Invalid params: unknown cursor");
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray("tasks");
        for (UpstreamLink link : links.all()) {
            if (!link.dedicated() && !owners.anyOf(link.name(), profile.key())) {
                continue; // nothing of this caller's there: the upstream is not asked
            }
            String cursor = "";
            for (int page = 0; page < MAX_PAGES; page++) {
                ObjectNode params = cursor.isEmpty() ? Json.object() : Json.object().put("cursor", cursor);
                JsonNode answer = send(link, ctx, params, link.spec().timeout());
                withTasks(answer, link, true).path("tasks").forEach(all::add);
                cursor = answer.path("nextCursor").asString("");
                if (cursor.isEmpty()) {
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Whether an upstream's {@code notifications/tasks/status} is for this client: on a shared
     * upstream, only if it created the task, on this connection (a stateless client has none: its
     * principal's).
     */
    boolean heard(UpstreamLink link, JsonNode status) {
        if (link.dedicated()) {
            return true;
        }
        return owners.ownedBy(link.name(), status.path("taskId").asString(""), profile.key())
                .filter(o -> profile.stateless() || o.connection().equals(profile.connection()))
                .filter(o -> usable(link, o)).isPresent();
    }

    /** A page with only the tasks this caller may see, each cleaned; the page's own cursor dropped if {@code whole}. */
    private JsonNode withTasks(JsonNode page, UpstreamLink link, boolean whole) {
        if (!(page instanceof ObjectNode object) || !(page.get("tasks") instanceof ArrayNode items)) {
            return whole ? Json.object().set("tasks", Json.mapper().createArrayNode()) : page;
        }
        ObjectNode copy = object.deepCopy();
        ArrayNode kept = copy.putArray("tasks");
        for (JsonNode item : items) {
            if (known(link, item.path("taskId").asString("")).isPresent()) {
                kept.add(cleanTask(link.pipeline(), item));
            }
        }
        if (whole) {
            copy.remove("nextCursor");
        }
        return copy;
    }

    /** The task the request names, as this caller may know it; else the answer for an unknown task. */
    private Found find(RequestContext ctx) {
        String taskId = ctx.params().map(p -> p.path("taskId").asString("")).orElse("");
        for (UpstreamLink link : links.all()) {
            Optional<Found> found = known(link, taskId);
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw unknown();
    }

    /**
     * The task on that upstream, if this caller may know it: on a shared one, only a task it
     * created; on a dedicated one, any (the one client's), except one whose tool it may no longer call.
     */
    private Optional<Found> known(UpstreamLink link, String taskId) {
        if (taskId.isEmpty()) {
            return Optional.empty();
        }
        Optional<TaskOwners.Owned> owned = link.dedicated() ? owners.of(link.name(), taskId)
                : owners.ownedBy(link.name(), taskId, profile.key());
        if (owned.isPresent()) {
            return owned.filter(o -> usable(link, o)).map(o -> new Found(link, Optional.of(o)));
        }
        return link.dedicated() && links.all().size() == 1 ? Optional.of(new Found(link, Optional.empty()))
                : Optional.empty();
    }

    /** Whether the caller may still call the task's tool, as {@code tools/call} would decide now. */
    private boolean usable(UpstreamLink link, TaskOwners.Owned owned) {
        return flow.visible(owned.exposed()).filter(t -> t.link() == link && t.name().equals(owned.tool()))
                .isPresent() && access.scoped(owned.exposed());
    }

    /** The request upstream; an upstream that does not know the task answers as the gateway would for an unknown one. */
    private JsonNode ask(Found found, RequestContext ctx) throws Exception {
        Duration timeout = found.owned().map(o -> found.link().spec().timeoutFor(o.tool()))
                .orElse(found.link().spec().timeout());
        return send(found.link(), ctx, UpstreamCalls.params(ctx), timeout);
    }

    private JsonNode send(UpstreamLink link, RequestContext ctx, ObjectNode params, Duration timeout)
            throws Exception {
        ErrorPipeline pipeline = link.pipeline();
        try {
            return calls.send(link, ctx, params, timeout, Optional.empty());
        } catch (PeerErrorException e) {
            if (UpstreamCalls.saysNotFound(e.error())) {
                throw unknown();
            }
            throw UpstreamFailures.forwarded(pipeline, ctx, e.error());
        } catch (RecordedFailure e) {
            throw pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, e.outcome());
        }
    }

    private static ProtocolException unknown() {
        return ProtocolException.invalidParams("Invalid params: unknown task");
    }

    /**
     * A task as the client gets it: its {@code statusMessage} (a failed task's is often the
     * server's error text) sanitized as a notification's text is; the rest as it is.
     */
    static JsonNode cleanTask(ErrorPipeline pipeline, JsonNode task) {
        if (!(task instanceof ObjectNode object) || !task.path("statusMessage").isString()) {
            return task;
        }
        ObjectNode copy = object.deepCopy();
        copy.set("statusMessage", pipeline.cleanNotification(task.get("statusMessage")));
        return copy;
    }
}
