package dev.warden.gateway.internal.failure;

import dev.warden.core.sanitize.CallerInput;
import java.util.ArrayList;
import java.util.List;

/**
 * What the server published to the caller of one call, which a failure may repeat to it as it may
 * repeat what the caller sent: the tool's definition (name, schema words, description, patterns,
 * examples, defaults), the values of this session's earlier successful results
 * ({@link dev.warden.gateway.internal.client.ShownToCaller}), the directories the user gave the server on its command line and the
 * client's own roots, and the names of the server's tools (guidance naming one of
 * them is no injection). {@link #onto} gives the sanitizer all of it as the caller's own.
 */
public final class Published {

    private static final Published NONE = new Published(List.of(), List.of(), List.of());

    private final List<String> values;
    private final List<String> directories;
    private final List<String> tools;

    public Published(List<String> values, List<String> directories, List<String> tools) {
        this.values = List.copyOf(values);
        this.directories = List.copyOf(directories);
        this.tools = List.copyOf(tools);
    }

    /** {@code caller}'s input with all this: the sanitizer keeps what is published as the caller's own. */
    CallerInput onto(CallerInput caller) {
        return caller.and(values).andDirectories(directories).andTools(tools);
    }

    /** Nothing published: a failure of a request that is no tool call. */
    static Published none() {
        return NONE;
    }

    /** The published strings (the tool's definition, earlier results), which may name the caller's fields. */
    List<String> words() {
        return values;
    }

    /**
     * The directories on the server's command line ({@code npx -y @mcp/server-filesystem /srv/data}):
     * an absolute path among its positional arguments is a place the user chose to
     * let it serve, which such servers tell any caller (list_allowed_directories, "must be within
     * one of these directories"). Not the program, nor its script ({@code node /opt/srv/index.js}),
     * and no other argument: a host or a URL there is the user's setup, not published to callers.
     */
    public static List<String> directoriesOf(List<String> commandLine) {
        List<String> out = new ArrayList<>();
        for (String arg : arguments(commandLine)) {
            // Only a positional argument: an option's value (-Dapp.home=/opt/app, --config=/etc/x) is
            // the server's own setting, not a place it serves its callers from.
            if ((arg.startsWith("/") || arg.startsWith("file://")) && !isScript(arg)) {
                out.add(arg);
            }
        }
        return out;
    }

    /** The arguments of a command line that are no program's script. */
    static List<String> arguments(List<String> commandLine) {
        return commandLine.size() <= 1 ? List.of()
                : commandLine.subList(1, commandLine.size()).stream().filter(a -> !isScript(a)).toList();
    }

    private static boolean isScript(String arg) {
        String a = arg.toLowerCase(java.util.Locale.ROOT);
        for (String ext : new String[] {".js", ".mjs", ".cjs", ".ts", ".py", ".jar", ".java", ".rb", ".php", ".sh",
                ".exe", ".bin", ".pl"}) {
            if (a.endsWith(ext)) {
                return true;
            }
        }
        return false;
    }
}
