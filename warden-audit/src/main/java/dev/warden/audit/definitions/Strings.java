package dev.warden.audit.definitions;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Every string of a server's definitions with where it stands: values and property names, as a
 * JSON pointer into the list result prefixed {@code definition:}. Iterative (a hostile schema's
 * nesting cannot exhaust the stack) and bounded in the number of strings it visits.
 */
final class Strings {

    /** Strings visited at most per definition: far above any real one, a bound on a hostile one. */
    static final int MAX_PER_DEFINITION = 20_000;

    /**
     * One string.
     *
     * @param owner    the name of the tool, resource or prompt it belongs to; empty for the instructions
     * @param location {@code definition:/tools/3/description}
     * @param text     the string
     * @param isKey    whether it is a property name rather than a value
     */
    record Located(Optional<String> owner, String location, String text, boolean isKey) {
    }

    private Strings() {
    }

    static void each(Definitions d, Consumer<Located> out) {
        d.instructions().ifPresent(i -> out.accept(new Located(Optional.empty(), "definition:/instructions", i, false)));
        for (Map.Entry<String, List<JsonNode>> list : d.lists().entrySet()) {
            List<JsonNode> items = list.getValue();
            for (int i = 0; i < items.size(); i++) {
                JsonNode item = items.get(i);
                walk(ownerOf(item), "definition:/" + list.getKey() + "/" + i, item, out);
            }
        }
    }

    static Optional<String> ownerOf(JsonNode item) {
        JsonNode name = item.path("name");
        if (!name.isString()) {
            name = item.path("uri");
        }
        return name.isString() ? Optional.of(Visible.of(name.stringValue())) : Optional.empty();
    }

    private record Node(String pointer, JsonNode value) {
    }

    private static void walk(Optional<String> owner, String root, JsonNode item, Consumer<Located> out) {
        Deque<Node> todo = new ArrayDeque<>();
        todo.push(new Node(root, item));
        int visited = 0;
        while (!todo.isEmpty() && visited++ < MAX_PER_DEFINITION) {
            Node n = todo.pop();
            JsonNode v = n.value();
            if (v.isString()) {
                out.accept(new Located(owner, n.pointer(), v.stringValue(), false));
            } else if (v.isObject()) {
                List<String> names = List.copyOf(v.propertyNames());
                for (int k = names.size() - 1; k >= 0; k--) {
                    String name = names.get(k);
                    String pointer = n.pointer() + "/" + escape(name);
                    out.accept(new Located(owner, pointer, name, true));
                    todo.push(new Node(pointer, v.get(name)));
                }
            } else if (v.isArray()) {
                for (int k = v.size() - 1; k >= 0; k--) {
                    todo.push(new Node(n.pointer() + "/" + k, v.get(k)));
                }
            }
        }
    }

    /** RFC 6901: {@code ~} as {@code ~0}, {@code /} as {@code ~1}; invisible characters shown as escapes. */
    static String escape(String name) {
        return Visible.of(name.replace("~", "~0").replace("/", "~1"));
    }
}
