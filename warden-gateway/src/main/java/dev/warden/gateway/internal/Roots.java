package dev.warden.gateway.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What several clients' roots allow together, for a server they share: a place is in the answer
 * only if it lies within a root of every client. A {@code file://} root contains the paths below
 * it (by whole path segments, so {@code /srv/a} does not contain {@code /srv/ab}); any other URI
 * only itself.
 */
final class Roots {

    private Roots() {
    }

    /**
     * @param each every client's roots (the {@code roots} array of its {@code roots/list} answer)
     * @return the roots within one of every client's roots, narrowest kept, in the first client's
     *     order; none when there are no clients
     */
    static List<JsonNode> intersection(List<List<JsonNode>> each) {
        if (each.isEmpty()) {
            return List.of();
        }
        List<JsonNode> common = each.get(0).stream().filter(r -> r.path("uri").isString()).toList();
        for (List<JsonNode> next : each.subList(1, each.size())) {
            Map<String, JsonNode> narrowed = new LinkedHashMap<>();
            for (JsonNode a : common) {
                for (JsonNode b : next) {
                    if (!b.path("uri").isString()) {
                        continue;
                    }
                    String ua = a.path("uri").stringValue();
                    String ub = b.path("uri").stringValue();
                    if (within(ua, ub)) {
                        narrowed.putIfAbsent(ua, a);
                    } else if (within(ub, ua)) {
                        narrowed.putIfAbsent(ub, b);
                    }
                }
            }
            common = new ArrayList<>(narrowed.values());
        }
        return common;
    }

    /** Whether {@code inner} lies within {@code outer}. */
    static boolean within(String inner, String outer) {
        if (inner.equals(outer)) {
            return true;
        }
        Optional<String> in = filePath(inner);
        Optional<String> out = filePath(outer);
        if (in.isEmpty() || out.isEmpty()) {
            return false;
        }
        String o = out.get().endsWith("/") ? out.get() : out.get() + "/";
        String i = in.get().endsWith("/") ? in.get() : in.get() + "/";
        return i.startsWith(o);
    }

    /** The normalized path of a {@code file://} URI with an absolute path; empty for anything else. */
    private static Optional<String> filePath(String uri) {
        try {
            URI u = URI.create(uri);
            if (!"file".equalsIgnoreCase(u.getScheme()) || u.getPath() == null || !u.getPath().startsWith("/")) {
                return Optional.empty();
            }
            return Optional.of(u.normalize().getPath());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
