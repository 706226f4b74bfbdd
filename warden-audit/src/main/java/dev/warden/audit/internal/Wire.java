package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every frame the server sent, as it came: answers by id (what the client's session parses away,
 * such as {@code error.data} and {@code _meta}, is kept here), notifications and frames that were no
 * JSON. The auditor reads findings from this, never from what the client made of it.
 *
 * <p>Answers to the auditor's own raw frames (ids starting {@value #RAW_ID_PREFIX}, or a null id)
 * are kept here and not passed on: the client's session never sent those requests.
 */
public final class Wire {

    public static final String RAW_ID_PREFIX = "wdn-raw-";
    /** Notifications and unreadable frames kept between two drains; a flooding server loses the rest. */
    private static final int MAX_KEPT = 1000;

    private final Map<String, CompletableFuture<ObjectNode>> answers = new ConcurrentHashMap<>();
    private final List<ObjectNode> notifications = new ArrayList<>();
    private final List<String> unreadable = new ArrayList<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    /** Records a frame; whether the client's session should see it. */
    public boolean received(byte[] frame) {
        JsonNode node;
        try {
            node = Json.mapper().readTree(frame);
        } catch (RuntimeException e) {
            keep(unreadable, new String(frame, StandardCharsets.UTF_8));
            return true;
        }
        if (node instanceof ObjectNode message) {
            if (message.has("method") && !message.has("id")) {
                keep(notifications, message);
                return true;
            }
            if (!message.has("method") && (message.has("result") || message.has("error"))) {
                JsonNode id = message.path("id");
                answer(idKey(id)).complete(message);
                return !id.isNull() && !id.isMissingNode()
                        && !(id.isString() && id.asString().startsWith(RAW_ID_PREFIX));
            }
            return true;
        }
        if (node.isArray()) {
            // a batch answer: each element stands on its own
            for (JsonNode element : node) {
                if (element instanceof ObjectNode o && (o.has("result") || o.has("error"))) {
                    answer(idKey(o.path("id"))).complete(o);
                }
            }
            return false;
        }
        keep(unreadable, node.toString());
        return true;
    }

    public void closed() {
        closed.complete(null);
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    /** The answer with {@code id} (its JSON text: {@code 7}, {@code "wdn-raw-1"}, {@code null}), once it comes. */
    public java.util.Optional<ObjectNode> await(String idKey, Duration timeout) {
        CompletableFuture<ObjectNode> answer = answer(idKey);
        try {
            return java.util.Optional.of(CompletableFuture.anyOf(answer, closed)
                    .thenCompose(ignored -> answer.isDone() ? answer : CompletableFuture.<ObjectNode>completedFuture(null))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)).filter(a -> a != null);
        } catch (TimeoutException | ExecutionException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /** The first answer with one of {@code idKeys} to come within {@code timeout}. */
    public java.util.Optional<ObjectNode> awaitAny(List<String> idKeys, Duration timeout) {
        CompletableFuture<?>[] waits = idKeys.stream().map(this::answer).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.anyOf(CompletableFuture.anyOf(waits), closed).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // no answer: said by the empty result below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return idKeys.stream().map(this::answered).flatMap(java.util.Optional::stream).findFirst();
    }

    /** The answer with {@code id} if it has come, without waiting. */
    public java.util.Optional<ObjectNode> answered(String idKey) {
        CompletableFuture<ObjectNode> answer = answers.get(idKey);
        return answer != null && answer.isDone() ? java.util.Optional.of(answer.join()) : java.util.Optional.empty();
    }

    /** Forgets an answer (one id may be reused by another probe, like {@code null}). */
    public void forget(String idKey) {
        answers.remove(idKey);
    }

    public synchronized List<ObjectNode> drainNotifications() {
        List<ObjectNode> out = List.copyOf(notifications);
        notifications.clear();
        return out;
    }

    public synchronized List<String> drainUnreadable() {
        List<String> out = List.copyOf(unreadable);
        unreadable.clear();
        return out;
    }

    public static String idKey(JsonNode id) {
        return id == null || id.isMissingNode() ? "null" : id.toString();
    }

    private CompletableFuture<ObjectNode> answer(String idKey) {
        return answers.computeIfAbsent(idKey, k -> new CompletableFuture<>());
    }

    private synchronized <T> void keep(List<T> list, T item) {
        if (list.size() < MAX_KEPT) {
            list.add(item);
        }
    }
}
