package dev.warden.gateway.internal.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What one client connection has been shown or has told (its roots, its successful results'
 * values), which a failure may repeat to this caller only: never shared between connections.
 * Bounded ({@value #MAX_RESULTS} results, {@value #MAX_STRINGS} strings, {@value #MAX_CHARS}
 * characters, {@value #MAX_ROOTS} roots): what is not remembered stays redacted, the safe side.
 */
public final class ShownToCaller {

    static final int MAX_RESULTS = 8;
    static final int MAX_STRINGS = 16;
    static final int MAX_CHARS = 2048;
    static final int MAX_ROOTS = 32;
    private static final int MAX_DEPTH = 8;

    private final ArrayDeque<List<String>> results = new ArrayDeque<>(MAX_RESULTS);
    private volatile List<String> roots = List.of();

    /** A successful {@code tools/call} result, as the client received it. */
    public void result(JsonNode result) {
        List<String> strings = new ArrayList<>();
        for (JsonNode block : result.path("content")) {
            if ("text".equals(block.path("type").asString("")) && block.path("text").isString()) {
                add(block.path("text").stringValue(), strings);
            }
        }
        collect(result.path("structuredContent"), strings, 0);
        if (strings.isEmpty()) {
            return;
        }
        synchronized (results) {
            if (results.size() == MAX_RESULTS) {
                results.removeFirst();
            }
            results.addLast(List.copyOf(strings));
        }
    }

    /** The client's answer to {@code roots/list}: its roots replace those it gave before. */
    public void roots(JsonNode answer) {
        List<String> uris = new ArrayList<>();
        for (JsonNode root : answer.path("roots")) {
            if (root.path("uri").isString() && uris.size() < MAX_ROOTS) {
                uris.add(root.path("uri").stringValue());
            }
        }
        roots = List.copyOf(uris);
    }

    /** The strings of the remembered results, newest first. */
    public List<String> values() {
        List<String> out = new ArrayList<>();
        synchronized (results) {
            results.descendingIterator().forEachRemaining(out::addAll);
        }
        return out;
    }

    public List<String> roots() {
        return roots;
    }

    private static void collect(JsonNode node, List<String> out, int depth) {
        if (out.size() >= MAX_STRINGS || depth > MAX_DEPTH) {
            return;
        }
        if (node.isString()) {
            add(node.stringValue(), out);
        } else if (node.isContainer()) {
            for (JsonNode child : node) {
                collect(child, out, depth + 1);
            }
        }
    }

    private static void add(String s, List<String> out) {
        if (out.size() < MAX_STRINGS && !s.isBlank()) {
            out.add(s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s);
        }
    }
}
