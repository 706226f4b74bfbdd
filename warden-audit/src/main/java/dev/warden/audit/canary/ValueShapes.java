package dev.warden.audit.canary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a property's value is, as its name, format and description say: a shell command, SQL, a
 * URL or a file path. The baseline never takes a value for such a property from prose (an
 * "e.g. rm -rf build" is an example of harm, not a harmless value), and a tool whose value is a
 * command or SQL by design runs what its caller writes: a capability, not an injection.
 * Words are split by hand (no regex over what a server sent).
 */
public final class ValueShapes {

    private static final Set<String> COMMAND_WORDS = Set.of("command", "commands", "cmd", "cmdline", "script",
            "scripts", "shell", "bash", "powershell");
    private static final Set<String> COMMAND_TOOLS = Set.of("bash", "sh", "zsh", "shell", "terminal", "powershell",
            "cmd", "console");
    private static final Set<String> RUN_WORDS = Set.of("run", "runs", "execute", "executes", "exec", "execs");
    private static final Set<String> SQL_WORDS = Set.of("sql", "query", "queries", "statement", "statements", "stmt");
    private static final Set<String> URL_WORDS = Set.of("url", "urls", "uri", "uris", "href", "link", "links",
            "endpoint", "webhook", "callback");
    private static final Set<String> URL_FORMATS = Set.of("uri", "url", "iri", "uri-reference", "iri-reference");
    private static final Set<String> PATH_WORDS = Set.of("path", "paths", "file", "files", "filename", "filepath",
            "dir", "directory", "directories", "folder", "folders", "cwd");

    private ValueShapes() {
    }

    /** Whether the value is a URL: a URL word in the property's name, or a URI format. */
    public static boolean url(String property, JsonNode schema) {
        return URL_FORMATS.contains(schema.path("format").asString("").toLowerCase(Locale.ROOT))
                || words(property).stream().anyMatch(URL_WORDS::contains);
    }

    /**
     * Whether the value may be a command, SQL, a URL or a path, by its name, format or description
     * (a URL word in the description counts too: "the page to fetch, e.g. http://…").
     */
    public static boolean risky(String property, JsonNode schema) {
        List<String> said = new ArrayList<>(words(property));
        said.addAll(words(schema.path("description").asString("")));
        return url(property, schema) || said.stream().anyMatch(w -> COMMAND_WORDS.contains(w)
                || SQL_WORDS.contains(w) || URL_WORDS.contains(w) || PATH_WORDS.contains(w));
    }

    /**
     * Whether the tool runs the commands its caller writes: its name is a shell's
     * ({@code bash}, {@code terminal}), or it says it runs a command or script ({@code run_command},
     * "Run a shell command"), or a property takes a command or script.
     */
    public static boolean runsCommands(JsonNode tool) {
        List<String> name = words(tool.path("name").asString(""));
        if (name.stream().anyMatch(COMMAND_TOOLS::contains) || says(name, RUN_WORDS, COMMAND_WORDS)
                || says(words(tool.path("description").asString("")), RUN_WORDS, COMMAND_WORDS)) {
            return true;
        }
        for (var p : tool.path("inputSchema").path("properties").properties()) {
            if (words(p.getKey()).stream().anyMatch(COMMAND_WORDS::contains)
                    || says(words(p.getValue().path("description").asString("")), RUN_WORDS, COMMAND_WORDS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the tool takes SQL its caller writes: a property named {@code sql}, or one named or
     * described as a query or statement where the tool or the property says SQL ({@code query(sql)}
     * "Execute a raw SQL query"). A search {@code query} that says nothing of SQL is not.
     */
    public static boolean runsSql(JsonNode tool) {
        boolean toolSaysSql = words(tool.path("name").asString("")).contains("sql")
                || words(tool.path("description").asString("")).contains("sql");
        for (var p : tool.path("inputSchema").path("properties").properties()) {
            List<String> name = words(p.getKey());
            List<String> described = words(p.getValue().path("description").asString(""));
            boolean sqlShaped = name.stream().anyMatch(SQL_WORDS::contains)
                    || described.stream().anyMatch(SQL_WORDS::contains);
            if (name.contains("sql") || sqlShaped && (toolSaysSql || described.contains("sql"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean says(List<String> words, Set<String> verbs, Set<String> objects) {
        return words.stream().anyMatch(verbs::contains) && words.stream().anyMatch(objects::contains);
    }

    /** Lower-case words: split on non-letters-or-digits and at lower-to-upper case changes; the first 4096 characters. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int limit = Math.min(text.length(), 4096);
        for (int i = 0; i < limit; i++) {
            char c = text.charAt(i);
            boolean boundary = !Character.isLetterOrDigit(c)
                    || (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(text.charAt(i - 1)));
            if (boundary && !word.isEmpty()) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
            if (Character.isLetterOrDigit(c)) {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }
}
