package dev.warden.audit.canary;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The canary values of one run: each shell canary echoes a token of its own, sent split
 * ({@code wdn""probe-…}) so that only a shell that parsed it puts it back together; each URL canary
 * points at the audit's loopback listener with a token of its own. Traversals read
 * {@code /etc/passwd} only; SQL values only break syntax. Nothing writes, deletes or leaves a
 * process running, and no URL leaves the machine.
 */
public final class Canaries {

    /** A canary value for one property: the probe in words, the value, and what it can prove. */
    public record Planted(String what, String text, Canary canary) {
    }

    /** 32 levels reach {@code /} from any folder a server is likely to serve. */
    public static final int TRAVERSAL_DEPTH = 32;

    private final String runId;
    private final Function<String, String> urls;
    private int next;

    /**
     * @param marker the run's marker ({@code wdnprobe-<hex>}): tokens are {@code <marker>-c<n>}
     * @param urls   the URL whose request proves a token was fetched (the run's loopback listener)
     */
    public Canaries(String marker, Function<String, String> urls) {
        this.runId = marker;
        this.urls = urls;
    }

    /** The shell canary with a {@code ; echo} and the marker after a comment (the reflection check reads it). */
    public Planted semicolon(String marker) {
        Canary.Shell shell = shell("; echo");
        return new Planted("shell metacharacters", "; echo " + split(shell.token()) + " # " + marker, shell);
    }

    /** The traversal that carries the marker (reflection), {@value #TRAVERSAL_DEPTH} levels deep. */
    public static Planted deepTraversal(String marker, List<String> bases) {
        return new Planted("path traversal", marker + "/" + "../".repeat(TRAVERSAL_DEPTH) + "etc/passwd",
                new Canary.Traversal("relative, " + TRAVERSAL_DEPTH + " levels deep", bases));
    }

    /** The SQL value that carries the marker (reflection). */
    public static Planted quoteAndOr(String marker) {
        return new Planted("SQL metacharacters", "' OR 1=1 -- " + marker, new Canary.Sql("quote and OR"));
    }

    /**
     * The canaries for a property beside the marked hostile values: every shell form, the
     * absolute and encoded traversals and the SQL values for the first property probed
     * ({@code full}), one of each kind for the others.
     */
    public List<Planted> forProperty(List<String> bases, boolean full) {
        List<Planted> out = new ArrayList<>();
        Canary.Shell sub = shell("$( )");
        out.add(new Planted("a shell canary, $( )", "$(echo " + split(sub.token()) + ")", sub));
        if (full) {
            Canary.Shell tick = shell("backtick");
            out.add(new Planted("a shell canary, backticks", "`echo " + split(tick.token()) + "`", tick));
            Canary.Shell pipe = shell("| (pipe)");
            out.add(new Planted("a shell canary, a pipe", "x | echo " + split(pipe.token()), pipe));
            Canary.Shell and = shell("&&");
            out.add(new Planted("a shell canary, &&", "x && echo " + split(and.token()), and));
            Canary.Shell newline = shell("newline");
            out.add(new Planted("a shell canary, a newline", "x\necho " + split(newline.token()), newline));
        }
        out.add(new Planted("an absolute path traversal", "/etc/passwd", new Canary.Traversal("absolute", bases)));
        if (full) {
            out.add(new Planted("a URL-encoded path traversal", "..%2f".repeat(TRAVERSAL_DEPTH) + "etc%2fpasswd",
                    new Canary.Traversal("URL-encoded", bases)));
        }
        out.add(new Planted("an SQL canary, a lone quote", "'", new Canary.Sql("lone quote")));
        if (full) {
            String pair = runId + "-b" + (++next);
            out.add(new Planted("an SQL canary, ' OR '1'='1", "' OR '1'='1", new Canary.SqlBoolean(pair, true)));
            out.add(new Planted("an SQL canary, ' OR '1'='2", "' OR '1'='2", new Canary.SqlBoolean(pair, false)));
            out.add(new Planted("an SQL canary, 1; --", "1; --", new Canary.Sql("1; --")));
        }
        return out;
    }

    /** The URL canary for a URL-shaped property: the audit's own loopback listener. */
    public Planted url() {
        String token = "wdn-" + runId.substring(runId.indexOf('-') + 1) + "-u" + (++next);
        return new Planted("a loopback canary URL", urls.apply(token), new Canary.Url(token));
    }

    /**
     * Whether a property takes a URL: its name has a word such as url, uri, href, link, endpoint,
     * webhook or callback ({@code imageUrl}, {@code callback_uri}), or its format is a URI.
     */
    public static boolean urlShaped(String property, JsonNode schema) {
        return ValueShapes.url(property, schema);
    }

    /** The absolute paths a tool's description names: the folders it says it serves. */
    public static List<String> bases(JsonNode tool) {
        return bases(tool.path("description").asString(""));
    }

    /** The absolute paths {@code description} names, normalized. */
    public static List<String> bases(String description) {
        return AbsolutePaths.in(description);
    }

    /** Whether the absolute {@code path} is one of {@code bases} or under one (after normalizing it). */
    public static boolean under(String path, List<String> bases) {
        String normalized = AbsolutePaths.normalize(path);
        return bases.stream().anyMatch(b -> AbsolutePaths.under(normalized, b));
    }

    private Canary.Shell shell(String form) {
        return new Canary.Shell(runId + "-c" + (++next), form);
    }

    /** {@code wdnprobe-…} as {@code wdn""probe-…}: a shell joins the two halves, reflection does not. */
    static String split(String token) {
        return token.substring(0, 3) + "\"\"" + token.substring(3);
    }
}
