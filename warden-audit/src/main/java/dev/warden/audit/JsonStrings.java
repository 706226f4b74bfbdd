package dev.warden.audit;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The strings of a JSON value, depth first, bounded in number and depth: what the caller sent, what a result holds. */
final class JsonStrings {

    private JsonStrings() {
    }

    static List<String> of(JsonNode node, int maxStrings, int maxDepth) {
        List<String> out = new ArrayList<>();
        collect(node, out, 0, maxStrings, maxDepth);
        return out;
    }

    private static void collect(JsonNode node, List<String> out, int depth, int maxStrings, int maxDepth) {
        if (out.size() >= maxStrings || depth > maxDepth) {
            return;
        }
        if (node.isString()) {
            out.add(node.asString());
        } else if (node.isContainer()) {
            for (JsonNode child : node) {
                collect(child, out, depth + 1, maxStrings, maxDepth);
            }
        }
    }
}
