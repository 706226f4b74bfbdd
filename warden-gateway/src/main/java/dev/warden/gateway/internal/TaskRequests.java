package dev.warden.gateway.internal;

import dev.warden.client.McpClient;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.call.ToolCallFlow;
import dev.warden.gateway.internal.call.UpstreamCalls;
import dev.warden.gateway.internal.call.UpstreamReply;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.upstream.TaskOwners;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's requests about tasks (MCP 2025-11-25) and the upstreams' task status news. On an
 * upstream shared between callers a task is its creator's ({@link TaskOwners}): to anyone else it
 * does not exist, and every request about it goes to the upstream connection it was created on.
 * A task stands for its tool call, so a caller who may no longer call the tool has no such task.
 * A {@link UpstreamLink#sole} upstream keeps its tasks as the server gives them.
 */
final class TaskRequests {

    /** How many pages of an upstream connection's task list are read for one {@code tasks/list}. */
    static final int MAX_PAGES = 10;

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
     * {@code tasks/get} and {@code tasks/cancel}: the task as the upstream says it is now. A sole
     * client's upstream's answers (its errors too) pass as they did before the gateway knew tasks.
     */
    private JsonNode status(RequestContext ctx) throws Exception {
        Found found = find(ctx);
        calls.spendRate(found.link(), ctx);
        JsonNode answer = found.link().sole() ? calls.forward(found.link(), ctx, UpstreamCalls.params(ctx))
                : ask(found, ctx);
        return found.link().pipeline().cleanTask(answer);
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
     * The caller's own tasks. From an upstream with other clients, every page (up to
     * {@link #MAX_PAGES}) of the list of each connection the caller created tasks on is read and
     * only the caller's tasks kept, in one answer: the upstream's cursors name tasks (another
     * caller's, maybe), so none is handed on, and a cursor from the client is one the gateway never gave.
     */
    JsonNode list(RequestContext ctx) throws Exception {
        calls.spendRate(links.first(), ctx); // once, however many upstreams and pages it reads
        if (links.all().size() == 1 && links.first().sole()) {
            UpstreamLink link = links.first();
            JsonNode page = calls.forward(link, ctx, UpstreamCalls.params(ctx));
            return withTasks(page, link, id -> known(link, id).isPresent(), false);
        }
        if (!ctx.params().map(p -> p.path("cursor").asString("")).orElse("").isEmpty()) {
            throw ProtocolException.invalidParams("Invalid params: unknown cursor");
        }
        ObjectNode out = Json.object();
        ArrayNode all = out.putArray("tasks");
        for (UpstreamLink link : links.all()) {
            if (link.sole()) {
                pages(link, Optional.empty(), ctx, id -> known(link, id).isPresent(), all);
            } else {
                for (McpClient session : owners.sessionsOf(link, profile.key())) {
                    pages(link, Optional.of(session), ctx, id -> owners.at(session, id)
                            .filter(o -> o.owner().equals(profile.key()) && usable(link, o)).isPresent(), all);
                }
            }
        }
        return out;
    }

    /** The pages of one upstream connection's task list, up to {@link #MAX_PAGES}: the tasks kept go to {@code all}. */
    private void pages(UpstreamLink link, Optional<McpClient> session, RequestContext ctx, Predicate<String> keep,
            ArrayNode all) throws Exception {
        Pages.readAll(p -> Optional.of(send(link, session, ctx, p, link.spec().timeout())),
                answer -> withTasks(answer, link, keep, true).path("tasks").forEach(all::add), MAX_PAGES);
    }

    /**
     * Whether an upstream's {@code notifications/tasks/status} is for this client: from an upstream
     * with other clients, only if it created the task, on that upstream connection and on this
     * client connection (a stateless client has none: its principal's).
     */
    boolean heard(UpstreamLink link, JsonNode status, Optional<McpClient> from) {
        if (link.sole()) {
            return true;
        }
        return from.flatMap(s -> owners.at(s, status.path("taskId").asString("")))
                .filter(o -> o.owner().equals(profile.key()))
                .filter(o -> profile.stateless() || o.connection().equals(profile.connection()))
                .filter(o -> usable(link, o)).isPresent();
    }

    /** Whether this client connection created that task on that upstream connection. */
    boolean createdHere(McpClient session, String taskId) {
        return owners.at(session, taskId).filter(o -> o.owner().equals(profile.key())
                && o.connection().equals(profile.connection())).isPresent();
    }

    /** A page with only the tasks {@code keep} lets this caller see, each cleaned; the page's own cursor dropped if {@code whole}. */
    private JsonNode withTasks(JsonNode page, UpstreamLink link, Predicate<String> keep, boolean whole) {
        if (!(page instanceof ObjectNode object) || !(page.get("tasks") instanceof ArrayNode items)) {
            return whole ? Json.object().set("tasks", Json.mapper().createArrayNode()) : page;
        }
        ObjectNode copy = object.deepCopy();
        ArrayNode kept = copy.putArray("tasks");
        for (JsonNode item : items) {
            if (keep.test(item.path("taskId").asString(""))) {
                kept.add(link.pipeline().cleanTask(item));
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
     * The task on that upstream, if this caller may know it: only a task it created (the one
     * created on this client connection first, if it has several of that id), except one whose tool
     * it may no longer call; on the one upstream of a sole client, any other id too.
     */
    private Optional<Found> known(UpstreamLink link, String taskId) {
        if (taskId.isEmpty()) {
            return Optional.empty();
        }
        List<TaskOwners.Owned> mine = owners.ownedBy(link, taskId, profile.key());
        Optional<TaskOwners.Owned> owned = mine.stream().filter(o -> o.connection().equals(profile.connection()))
                .findFirst().or(() -> mine.isEmpty() ? Optional.empty() : Optional.of(mine.get(mine.size() - 1)));
        if (owned.isPresent()) {
            return owned.filter(o -> usable(link, o)).map(o -> new Found(link, Optional.of(o)));
        }
        return link.sole() && links.all().size() == 1 ? Optional.of(new Found(link, Optional.empty()))
                : Optional.empty();
    }

    /**
     * Whether the caller may still call the task's tool, as {@code tools/call} would decide now. A
     * sole client's task is its own even if the server no longer offers the tool: only the access
     * rules and the tool's scopes apply.
     */
    private boolean usable(UpstreamLink link, TaskOwners.Owned owned) {
        if (link.sole()) {
            return access.tool(link.name(), owned.tool()) && access.scoped(owned.exposed());
        }
        return flow.visible(owned.exposed()).filter(t -> t.link() == link && t.name().equals(owned.tool()))
                .isPresent() && access.scoped(owned.exposed());
    }

    /** The request upstream, on the connection the task was created on; an upstream that does not know it answers as for an unknown one. */
    private JsonNode ask(Found found, RequestContext ctx) throws Exception {
        Duration timeout = found.owned().map(o -> found.link().spec().timeoutFor(o.tool()))
                .orElse(found.link().spec().timeout());
        return send(found.link(), found.owned().map(TaskOwners.Owned::session), ctx, UpstreamCalls.params(ctx),
                timeout);
    }

    private JsonNode send(UpstreamLink link, Optional<McpClient> session, RequestContext ctx, ObjectNode params,
            Duration timeout) throws Exception {
        UpstreamReply reply = session.isPresent() ? calls.sendOn(session.get(), link, ctx, params, timeout)
                : calls.send(link, ctx, params, timeout, Optional.empty());
        return UpstreamCalls.resultOf(profile.pipeline(link), ctx, reply, Optional.of(TaskRequests::unknown));
    }

    private static ProtocolException unknown() {
        return ProtocolException.invalidParams("Invalid params: unknown task");
    }
}
