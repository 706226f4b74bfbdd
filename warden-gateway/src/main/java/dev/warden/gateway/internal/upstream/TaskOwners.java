package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import dev.warden.gateway.internal.limits.ClientKey;
import dev.warden.gateway.internal.limits.PerOwnerBound;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Who created each task (MCP 2025-11-25) an upstream runs: a shared upstream keeps everyone's tasks
 * in one store, so only the creating principal ({@link ClientKey}) may see or touch a task, and only
 * on the upstream connection it was created on (each connection may count its ids from one). An id
 * issued twice on one connection is nobody's. Kept in this process only (another replica fails
 * closed: "unknown task"), at most {@link #MAX_PER_OWNER} per principal and {@link #MAX} in all;
 * a forgotten task's owner gets "unknown task", never someone else's. Why: docs/design/gateway-checks.md.
 */
public final class TaskOwners {

    /** How many tasks are remembered at most for one principal. */
    static final int MAX_PER_OWNER = 1_000;
    /** How many tasks are remembered at most, in all. */
    static final int MAX = 100_000;

    /**
     * One task's creator.
     *
     * @param owner who created it
     * @param connection the client connection it was created on (its status notifications go there)
     * @param link the upstream it runs on
     * @param session the upstream connection it was created on: the only one that knows it
     * @param taskId its id on that connection
     * @param exposed the tool's name as the client called it
     * @param tool the tool's name at its upstream
     */
    public record Owned(ClientKey owner, ClientKey connection, UpstreamLink link, McpClient session, String taskId,
            String exposed, String tool) {
        public Owned {
            if (owner == null || connection == null || link == null || session == null || taskId == null
                    || exposed == null || tool == null) {
                throw new IllegalArgumentException("an owner, connections, a task and a tool are needed");
            }
        }
    }

    private record Key(McpClient session, String taskId) {
    }

    private static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

    private final PerOwnerBound<ClientKey, Key, Owned> tasks;

    public TaskOwners() {
        this(MAX_PER_OWNER, MAX);
    }

    TaskOwners(int maxPerOwner, int max) {
        this.tasks = new PerOwnerBound<>(maxPerOwner, max);
    }

    /** The task id of a {@code tools/call} result that created a task, if it is one. */
    public static Optional<String> createdBy(JsonNode result) {
        JsonNode task = result.path("task");
        JsonNode id = task.isObject() ? task.path("taskId") : "task".equals(result.path("resultType").asString(""))
                ? result.path("taskId") : null;
        return id != null && id.isString() && !id.stringValue().isEmpty() && !result.has("content")
                ? Optional.of(id.stringValue()) : Optional.empty();
    }

    /** The task a message from an upstream says it is about ({@code _meta."io.modelcontextprotocol/related-task"}). */
    static Optional<String> relatedTask(JsonNode params) {
        JsonNode id = params.path("_meta").path(RELATED_TASK).path("taskId");
        return id.isString() ? Optional.of(id.stringValue()) : Optional.empty();
    }

    /** Records a task; false if its connection already had a task of that id (then neither is recorded). */
    public boolean created(Owned owned) {
        Key key = new Key(owned.session(), owned.taskId());
        // On a server with one client every task is that client's: an id issued again is its newer task.
        return tasks.putIfAbsent(owned.owner(), key, owned)
                || owned.link().sole() && tasks.putIfAbsent(owned.owner(), key, owned);
    }

    /** The task of that id on that upstream connection, whoever created it. */
    public Optional<Owned> at(McpClient session, String taskId) {
        return tasks.get(new Key(session, taskId));
    }

    /** The tasks of that id on that upstream (on any of its connections) {@code who} created, oldest first. */
    public List<Owned> ownedBy(UpstreamLink link, String taskId, ClientKey who) {
        return tasks.of(who).stream().filter(o -> o.link() == link && o.taskId().equals(taskId)).toList();
    }

    /** The connections of that upstream {@code who} created tasks on (else there is nothing to list for it there). */
    public List<McpClient> sessionsOf(UpstreamLink link, ClientKey who) {
        return tasks.of(who).stream().filter(o -> o.link() == link).map(Owned::session).distinct().toList();
    }
}
