package dev.warden.gateway.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The environment a stdio upstream's process starts with. The gateway's own environment holds what
 * every upstream's configuration may interpolate (an HTTP upstream's API key, another server's
 * password): a process gets none of it unless named. What it gets is a minimal base (below), the
 * variables its configuration sets ({@code env}), and those it names to pass on ({@code inheritEnv}).
 *
 * <p>The base is what programs need to start and behave as in a shell, and holds no credentials:
 * {@code PATH}, {@code HOME}, {@code USER}, {@code LOGNAME}, {@code SHELL}, {@code TMPDIR}, {@code TZ},
 * {@code LANG}, {@code LANGUAGE}, every {@code LC_*}, and on Windows {@code SYSTEMROOT}, {@code WINDIR},
 * {@code COMSPEC}, {@code PATHEXT}, {@code TEMP}, {@code TMP}, {@code USERPROFILE}, {@code APPDATA},
 * {@code LOCALAPPDATA}, {@code PROGRAMDATA}, {@code PROGRAMFILES} (names compared without case
 * there). Proxy settings ({@code HTTPS_PROXY}) are not in it: they may carry a password; name them.
 *
 * @param set variables set for it (its configuration's {@code env}); they win over inherited ones
 * @param inherit names of the gateway's variables passed on besides the base
 * @param everything whether it inherits the whole environment instead ({@code warden wrap}: a
 *     drop-in its MCP client launches with an environment meant for the server)
 */
public record StdioEnvironment(Map<String, String> set, Set<String> inherit, boolean everything) {

    /** The base every stdio upstream gets (besides {@code LC_*}). */
    public static final Set<String> BASE = Set.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG",
            "LANGUAGE");
    /** The base on Windows, where a program cannot even start without some of these. */
    public static final Set<String> WINDOWS_BASE = Set.of("SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP",
            "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES");

    public StdioEnvironment {
        set = Map.copyOf(set);
        inherit = Set.copyOf(inherit);
        for (String name : inherit) {
            if (!validName(name)) {
                throw new IllegalArgumentException("an environment variable's name is letters, digits and '_', got \""
                        + name + "\"");
            }
        }
    }

    /** The base, plus {@code set}, plus the variables named in {@code inherit}. */
    public static StdioEnvironment minimal(Map<String, String> set, Set<String> inherit) {
        return new StdioEnvironment(set, inherit, false);
    }

    /** The gateway's whole environment, plus {@code set} (what {@code warden wrap} gives its server). */
    public static StdioEnvironment everything(Map<String, String> set) {
        return new StdioEnvironment(set, Set.of(), true);
    }

    /** What the process gets, from the gateway's own environment {@code parent}. */
    public Map<String, String> resolve(Map<String, String> parent) {
        return resolve(parent, System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows"));
    }

    Map<String, String> resolve(Map<String, String> parent, boolean windows) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : parent.entrySet()) {
            if (everything || passed(e.getKey(), windows)) {
                env.put(e.getKey(), e.getValue());
            }
        }
        env.putAll(set);
        return env;
    }

    private boolean passed(String name, boolean windows) {
        if (BASE.contains(name) || name.startsWith("LC_") || inherit.contains(name)) {
            return true;
        }
        if (!windows) {
            return false;
        }
        String upper = name.toUpperCase(Locale.ROOT);
        return BASE.contains(upper) || WINDOWS_BASE.contains(upper)
                || inherit.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }

    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (char c : name.toCharArray()) {
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        // Values may be credentials: never in a log line or an exception message.
        return "StdioEnvironment[set=" + set.keySet() + ", inherit=" + inherit + ", everything=" + everything + "]";
    }
}
