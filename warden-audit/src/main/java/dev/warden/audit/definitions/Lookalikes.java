package dev.warden.audit.definitions;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Names one slip away from a well-known one ({@code twittter-mcp} for {@code twitter},
 * {@code read_flie} for {@code read_file}): typosquatting, meant to be picked by a model or a user
 * who meant the original. Names are compared as words joined (case and separators do not count,
 * {@code mcp} and {@code server} are dropped from server names, and so are trailing digits:
 * {@code sqlite3}, {@code github2}), by an optimal-string-alignment distance that counts only the
 * slips a hand makes: a doubled letter ({@code twittter}, or one doubled over its neighbour,
 * {@code puppetter}), a dropped letter, a transposed pair. Any other letter in place of one
 * ({@code mssql}, {@code email}, {@code stack}) is another name, not a slip. At most 1 slip for
 * names of 5 to 9 characters, 2 from 10; shorter names only match exactly, and an exact match is
 * no lookalike (the same name is the shadowing rule's matter, or the server itself). A plural
 * ({@code read_files}) and an English word ({@code entry} for {@code sentry}) are no lookalikes.
 */
final class Lookalikes {

    /** Longer names are cut here: the distance is quadratic in the length, and no real name is longer. */
    private static final int MAX_CHARS = 64;
    /** The cost of an edit no hand slips into: above any allowance, so it never matches. */
    private static final int NO_SLIP = 3;
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
        return nearest(withoutDigits(core), WellKnownTools.SERVERS);
    }

    /** The well-known tool name (as {@code read_file}) {@code toolName} imitates, if it is a lookalike of one. */
    static Optional<String> tool(String toolName) {
        String core = withoutDigits(String.join("", NameParts.of(toolName)));
        if (CommonWords.contains(core) || WellKnownTools.tools().stream().anyMatch(k -> k.replace("_", "").equals(core))) {
            return Optional.empty();
        }
        return WellKnownTools.tools().stream().sorted().filter(k -> !GENERIC_TOOLS.contains(k))
                .filter(k -> near(core, k.replace("_", ""))).findFirst();
    }

    private static Optional<String> nearest(String core, Set<String> known) {
        if (CommonWords.contains(core) || known.stream().anyMatch(k -> withoutDigits(k).equals(core))) {
            return Optional.empty();
        }
        // Sorted, so a name near two well-known ones is reported the same way every run.
        return known.stream().sorted().filter(k -> near(core, withoutDigits(k))).findFirst();
    }

    /** {@code name} without the digits it ends with ({@code sqlite3}, {@code context7}): a version or a copy's number. */
    static String withoutDigits(String name) {
        int end = name.length();
        while (end > 0 && name.charAt(end - 1) >= '0' && name.charAt(end - 1) <= '9') {
            end--;
        }
        return name.substring(0, end);
    }

    /** Whether {@code name} is within the allowed slips of {@code known} (and neither equal to it nor its plural). */
    static boolean near(String name, String known) {
        int allowed = known.length() >= 10 ? 2 : known.length() >= 5 ? 1 : 0;
        if (allowed == 0 || name.isEmpty() || Math.abs(name.length() - known.length()) > allowed) {
            return false;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals(known + "s") || known.equals(lower + "s")) {
            return false; // read_files beside read_file, create_relation beside create_relations
        }
        int d = slips(lower, known);
        return d > 0 && d <= allowed;
    }

    /**
     * Optimal-string-alignment distance from the well-known {@code b} to {@code a} in slips a hand
     * makes: a letter dropped, a letter doubled (an extra letter equal to the one before it, or one
     * put in place of the next letter: {@code puppetter}), a transposed pair. Any other edit (another
     * letter in place of one, a letter added that doubles nothing) costs {@link #NO_SLIP}, more than
     * any name is allowed, so {@code mssql} is no slip from {@code mysql}.
     */
    static int slips(String a, String b) {
        a = a.length() > MAX_CHARS ? a.substring(0, MAX_CHARS) : a;
        b = b.length() > MAX_CHARS ? b.substring(0, MAX_CHARS) : b;
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 1; i <= a.length(); i++) {
            d[i][0] = d[i - 1][0] + (i > 1 && a.charAt(i - 2) == a.charAt(i - 1) ? 1 : NO_SLIP);
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                char c = a.charAt(i - 1);
                int doubled = i > 1 && a.charAt(i - 2) == c ? 1 : NO_SLIP;
                int cost = c == b.charAt(j - 1) ? 0 : doubled;
                int best = Math.min(Math.min(d[i - 1][j] + doubled, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && c == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
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
