package dev.warden.audit.definitions;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Names one slip away from a well-known one ({@code twittter-mcp} for {@code twitter},
 * {@code read_flie} for {@code read_file}): typosquatting, meant to be picked by a model or a user
 * who meant the original. Names are compared as words joined (case and separators do not count,
 * {@code mcp} and {@code server} are dropped from server names), by optimal-string-alignment
 * Damerau–Levenshtein distance (a transposed pair is one slip): at most 1 for names of 5 to 9
 * characters, 2 from 10; shorter names only match exactly, and an exact match is no lookalike
 * (the same name is the shadowing rule's matter, or the server itself).
 */
final class Lookalikes {

    /** Longer names are cut here: the distance is quadratic in the length, and no real name is longer. */
    private static final int MAX_CHARS = 64;
    /** Words that name what any server is, not which one. */
    private static final Set<String> AFFIXES = Set.of("mcp", "server", "servers", "modelcontextprotocol");
    /** Well-known tool names too generic to imitate: {@code queries} or {@code fetcher} copy nobody. */
    private static final Set<String> GENERIC_TOOLS = Set.of("query", "fetch");

    private Lookalikes() {
    }

    /** The well-known server name {@code serverName} imitates, if it is a lookalike of one. */
    static Optional<String> server(String serverName) {
        String name = serverName.substring(serverName.lastIndexOf('/') + 1); // "@scope/name", "io.github.x/name"
        String core = String.join("", NameParts.of(name).stream().filter(w -> !AFFIXES.contains(w)).toList());
        return nearest(core, WellKnownTools.SERVERS);
    }

    /** The well-known tool name (as {@code read_file}) {@code toolName} imitates, if it is a lookalike of one. */
    static Optional<String> tool(String toolName) {
        String core = String.join("", NameParts.of(toolName));
        if (WellKnownTools.tools().stream().anyMatch(k -> k.replace("_", "").equals(core))) {
            return Optional.empty();
        }
        return WellKnownTools.tools().stream().sorted().filter(k -> !GENERIC_TOOLS.contains(k))
                .filter(k -> near(core, k.replace("_", ""))).findFirst();
    }

    private static Optional<String> nearest(String core, Set<String> known) {
        if (known.contains(core)) {
            return Optional.empty();
        }
        // Sorted, so a name near two well-known ones is reported the same way every run.
        return known.stream().sorted().filter(k -> near(core, k)).findFirst();
    }

    /** Whether {@code name} is within the allowed slips of {@code known} (and not equal to it). */
    static boolean near(String name, String known) {
        int allowed = known.length() >= 10 ? 2 : known.length() >= 5 ? 1 : 0;
        if (allowed == 0 || name.isEmpty() || Math.abs(name.length() - known.length()) > allowed) {
            return false;
        }
        int d = distance(name.toLowerCase(Locale.ROOT), known);
        return d > 0 && d <= allowed;
    }

    /** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        a = a.length() > MAX_CHARS ? a.substring(0, MAX_CHARS) : a;
        b = b.length() > MAX_CHARS ? b.substring(0, MAX_CHARS) : b;
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
