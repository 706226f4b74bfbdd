package dev.warden.gateway.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Who created each task (MCP 2025-11-25) an upstream runs for the gateway's clients: an upstream
 * shared between callers keeps everyone's tasks in one store, so the gateway remembers, per
 * upstream and task id, the principal whose {@code tools/call} created it (its {@link ClientKey}:
 * the authenticated issuer and subject, else what the gateway tells the client by), the connection
 * it came on, and the tool. Only that principal may see or touch the task.
 *
 * <p>Kept in this process, beside the rest of what the gateway keeps per client (parked calls,
 * subscriptions): a replica that did not see a task's creation knows no owner for it and answers
 * as for an unknown task (it fails closed). At most {@link #MAX} tasks are remembered; the oldest
 * are forgotten first (their owners then get "unknown task", never someone else's).
 */
public final class TaskOwners {

    /** How many tasks are remembered at most, in all. */
    static final int MAX = 100_000;

    /**
     * One task's creator.
     *
     * @param owner who created it
     * @param connection the client connection it was created on (its status notifications go there)
     * @param exposed the tool's name as the client called it
     * @param tool the tool's name at its upstream
     */
    record Owned(ClientKey owner, ClientKey connection, String exposed, String tool) {
        Owned {
            if (owner == null || connection == null || exposed == null || tool == null) {
                throw new IllegalArgumentException("an owner, a connection and a tool are needed");
            }
        }
    }

    private record Key(String upstream, String taskId) {
    }

    private final Map<Key, Owned> tasks = new LinkedHashMap<>();

    /** The task id of a {@code tools/call} result that created a task, if it is one. */
    static Optional<String> createdBy(JsonNode result) {
        JsonNode task = result.path("task");
        JsonNode id = task.isObject() ? task.path("taskId") : "task".equals(result.path("resultType").asString(""))
                ? result.path("taskId") : null;
        return id != null && id.isString() && !id.stringValue().isEmpty() && !result.has("content")
                ? Optional.of(id.stringValue()) : Optional.empty();
    }

    void created(String upstream, String taskId, Owned owned) {
        synchronized (tasks) {
            tasks.put(new Key(upstream, taskId), owned);
            while (tasks.size() > MAX) {
                tasks.remove(tasks.keySet().iterator().next());
            }
        }
    }

    /** The task as {@code who} may know it: empty when it is unknown or someone else's. */
    Optional<Owned> ownedBy(String upstream, String taskId, ClientKey who) {
        return of(upstream, taskId).filter(o -> o.owner().equals(who));
    }

    Optional<Owned> of(String upstream, String taskId) {
        synchronized (tasks) {
            return Optional.ofNullable(tasks.get(new Key(upstream, taskId)));
        }
    }

    /** Whether {@code who} created any task on that upstream (else there is nothing to list for it). */
    boolean anyOf(String upstream, ClientKey who) {
        synchronized (tasks) {
            return tasks.entrySet().stream().anyMatch(e -> e.getKey().upstream().equals(upstream)
                    && e.getValue().owner().equals(who));
        }
    }
}
