package dev.warden.auth.internal;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A tool's extra scopes by pattern: a pattern is a tool's exact name, or a prefix followed by
 * {@code *} (one trailing star, nothing else: no backtracking, no surprises). A tool needs the
 * scopes of every pattern it matches.
 */
public final class ToolScopes {

    private final Map<String, Set<String>> byPattern;

    public ToolScopes(Map<String, Set<String>> byPattern) {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        byPattern.forEach((glob, scopes) -> {
            if (!valid(glob)) {
                throw new IllegalArgumentException("a tool pattern is a name, or a prefix and a trailing *, got " + glob);
            }
            copy.put(glob, Set.copyOf(scopes));
        });
        this.byPattern = Map.copyOf(copy);
    }

    public static boolean valid(String glob) {
        int star = glob.indexOf('*');
        return !glob.isEmpty() && (star < 0 || star == glob.length() - 1);
    }

    public Set<String> forTool(String tool) {
        Set<String> out = new LinkedHashSet<>();
        byPattern.forEach((glob, scopes) -> {
            boolean matches = glob.endsWith("*") ? tool.startsWith(glob.substring(0, glob.length() - 1)) : tool.equals(glob);
            if (matches) {
                out.addAll(scopes);
            }
        });
        return Set.copyOf(out);
    }

    public Set<String> all() {
        Set<String> out = new LinkedHashSet<>();
        byPattern.values().forEach(out::addAll);
        return out;
    }
}
