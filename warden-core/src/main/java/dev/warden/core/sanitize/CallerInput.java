package dev.warden.core.sanitize;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What the caller sent with a request: the strings of its arguments (and the keys it chose). What
 * the caller sent may come back to it ({@code column "emial" does not exist} when its SQL said
 * {@code emial}); what only the server knows may not. The sanitizer keeps a finding whose text
 * is the caller's own, except secrets and injections, which are caught wherever they come from.
 *
 * <p>Bounded: at most {@value #MAX_VALUES} strings sent and {@value #MAX_PUBLISHED} published, of at
 * most {@value #MAX_VALUE_CHARS} characters, are kept, spans longer than {@value #MAX_SPAN_CHARS} are never the caller's, and one lookup
 * tries at most {@value #MAX_PROBES} places, so a hostile request cannot make a check costly (a
 * lookup that runs out of tries says "not the caller's", the safe answer). Comparison ignores ASCII case, since
 * databases fold unquoted identifiers ({@code SELECT Emial} fails on {@code "emial"}).
 */
public final class CallerInput {

    static final int MAX_VALUES = 64;
    /** Strings published to the caller ({@link #and}) kept at most, besides its own. */
    static final int MAX_PUBLISHED = 192;
    static final int MAX_VALUE_CHARS = 4096;
    /** A span longer than this is never taken for the caller's own (what is redacted is short). */
    static final int MAX_SPAN_CHARS = 512;
    private static final int MAX_DEPTH = 16;
    static final int MAX_PROBES = 1024;

    /** The server's tool names kept at most (guidance may name any of them). */
    static final int MAX_TOOLS = 1024;

    /** Directories kept at most (a client's roots, a server's configured directories). */
    static final int MAX_DIRECTORIES = 32;

    private static final CallerInput NONE = new CallerInput(List.of(), Set.of(), List.of());

    private final List<String> values;
    private final Set<String> words;
    private final Set<String> tools;
    private final List<String> directories;

    private CallerInput(List<String> lowerValues, Set<String> lowerTools, List<String> lowerDirectories) {
        this.values = List.copyOf(lowerValues);
        Set<String> w = new HashSet<>();
        for (String v : values) {
            addWords(v, w);
        }
        this.words = Set.copyOf(w);
        this.tools = Set.copyOf(lowerTools);
        this.directories = List.copyOf(lowerDirectories);
    }

    /** A copy with other tools or directories: the values, and so their words, are the same (not split again). */
    private CallerInput(CallerInput like, Set<String> lowerTools, List<String> lowerDirectories) {
        this.values = like.values;
        this.words = like.words;
        this.tools = Set.copyOf(lowerTools);
        this.directories = List.copyOf(lowerDirectories);
    }

    private CallerInput(List<String> lowerValues) {
        this(lowerValues, Set.of(), List.of());
    }

    /** Nothing was sent (a request without arguments, or text not tied to a request). */
    public static CallerInput none() {
        return NONE;
    }

    /** The strings (values and keys) of a request's arguments, walked to a bounded depth. */
    public static CallerInput of(JsonNode arguments) {
        Objects.requireNonNull(arguments, "arguments");
        List<String> found = new ArrayList<>();
        collect(arguments, found, 0);
        return found.isEmpty() ? NONE : new CallerInput(lower(found));
    }

    public static CallerInput ofStrings(Collection<String> strings) {
        Objects.requireNonNull(strings, "strings");
        List<String> found = new ArrayList<>();
        for (String s : strings) {
            add(Objects.requireNonNull(s, "strings contains null"), found);
        }
        return found.isEmpty() ? NONE : new CallerInput(lower(found));
    }

    /**
     * This input and {@code more} strings the caller may see come back, such as what a tool
     * published of itself (its name, its schema's property names): kept within the same bounds.
     */
    public CallerInput and(Collection<String> more) {
        Objects.requireNonNull(more, "more");
        if (more.isEmpty()) {
            return this;
        }
        List<String> found = new ArrayList<>(values);
        for (String s : more) {
            Objects.requireNonNull(s, "more contains null");
            if (found.size() < MAX_VALUES + MAX_PUBLISHED && !s.isBlank()) {
                String lower = s.toLowerCase(Locale.ROOT);
                found.add(lower.length() > MAX_VALUE_CHARS ? lower.substring(0, MAX_VALUE_CHARS) : lower);
            }
        }
        return new CallerInput(found, tools, directories);
    }

    /**
     * This input, knowing the names of the tools the server listed to every caller: guidance that
     * points the model at one of them ("Call the list-connections tool") is not injection. At most
     * {@value #MAX_TOOLS} names are kept.
     */
    public CallerInput andTools(Collection<String> names) {
        Objects.requireNonNull(names, "names");
        if (names.isEmpty()) {
            return this;
        }
        Set<String> all = new HashSet<>(tools);
        for (String name : names) {
            if (all.size() >= MAX_TOOLS) {
                break;
            }
            all.add(Objects.requireNonNull(name, "names contains null").toLowerCase(Locale.ROOT));
        }
        return new CallerInput(this, all, directories);
    }

    /**
     * This input, knowing directories published to the caller: the client's own roots, the
     * directories the user gave the server on its command line. A path in one of them (the
     * directory itself or below it, with no {@code ..} step) is the caller's: the user chose to
     * show the server that place, and the model works in it. {@code file://} URIs are read as their
     * paths; relative paths and the file system's root are ignored. At most {@value #MAX_DIRECTORIES}.
     */
    public CallerInput andDirectories(Collection<String> published) {
        Objects.requireNonNull(published, "published");
        List<String> all = new ArrayList<>(directories);
        for (String d : published) {
            directory(Objects.requireNonNull(d, "published contains null")).filter(x -> !all.contains(x))
                    .ifPresent(x -> {
                        if (all.size() < MAX_DIRECTORIES) {
                            all.add(x);
                        }
                    });
        }
        return all.size() == directories.size() ? this : new CallerInput(this, tools, all);
    }

    /** The published directories, normalized (lower-cased, no trailing separator), for tests and incidents. */
    public List<String> directories() {
        return directories;
    }

    private static java.util.Optional<String> directory(String given) {
        String d = given.strip();
        if (d.regionMatches(true, 0, "file://", 0, 7)) {
            d = java.net.URLDecoder.decode(d.substring(7).replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        }
        while (d.length() > 1 && (d.endsWith("/") || d.endsWith("\\"))) {
            d = d.substring(0, d.length() - 1);
        }
        boolean absolute = d.startsWith("/") || d.length() >= 3 && Character.isLetter(d.charAt(0)) && d.charAt(1) == ':'
                && (d.charAt(2) == '\\' || d.charAt(2) == '/');
        if (!absolute || d.length() < 2 || d.length() > MAX_SPAN_CHARS || d.length() == 3 && d.charAt(1) == ':'
                || climbs(d)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(d.toLowerCase(Locale.ROOT));
    }

    /** Whether a path has a {@code ..} step (it may leave the directory it starts in). */
    private static boolean climbs(String path) {
        int at = path.indexOf("..");
        while (at >= 0) {
            boolean startsStep = at == 0 || path.charAt(at - 1) == '/' || path.charAt(at - 1) == '\\';
            boolean endsStep = at + 2 == path.length() || path.charAt(at + 2) == '/' || path.charAt(at + 2) == '\\';
            if (startsStep && endsStep) {
                return true;
            }
            at = path.indexOf("..", at + 1);
        }
        return false;
    }

    private boolean inDirectory(String lowerSpan) {
        if (directories.isEmpty() || climbs(lowerSpan)) {
            return false;
        }
        for (String d : directories) {
            if (lowerSpan.startsWith(d) && (lowerSpan.length() == d.length() || lowerSpan.charAt(d.length()) == '/'
                    || lowerSpan.charAt(d.length()) == '\\')) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code name} is one of the server's own tools ({@link #andTools}), ignoring ASCII case. */
    public boolean isServersTool(String name) {
        return !tools.isEmpty() && tools.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether no string or directory was sent or published (tool names aside). */
    public boolean isEmpty() {
        return values.isEmpty() && directories.isEmpty();
    }

    /**
     * Whether {@code span} is the caller's own: one of its strings, one of their words, or a run of
     * its text that starts and ends at word boundaries. Quotes, backticks and brackets around the
     * span are ignored; ASCII case is ignored.
     */
    public boolean owns(CharSequence span) {
        Objects.requireNonNull(span, "span");
        if (isEmpty()) {
            return false;
        }
        String s = unquoted(span.toString().strip()).toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.length() > MAX_SPAN_CHARS) {
            return false;
        }
        if (words.contains(s) || inDirectory(s)) {
            return true;
        }
        int[] probes = {0};
        for (String v : values) {
            if (containsAtBoundaries(v, s, probes)) {
                return true;
            }
            if (probes[0] >= MAX_PROBES) {
                return false;
            }
        }
        return false;
    }

    /** The caller's strings, lower-cased (for tests and for the incident). */
    public List<String> values() {
        return values;
    }

    private static boolean containsAtBoundaries(String value, String span, int[] probes) {
        int from = 0;
        while (probes[0]++ < MAX_PROBES) {
            int at = value.indexOf(span, from);
            if (at < 0) {
                return false;
            }
            int end = at + span.length();
            boolean startOk = at == 0 || !isWordChar(value.charAt(at - 1)) || !isWordChar(span.charAt(0));
            boolean endOk = end == value.length() || !isWordChar(value.charAt(end))
                    || !isWordChar(span.charAt(span.length() - 1));
            if (startOk && endOk) {
                return true;
            }
            from = at + 1;
        }
        return false;
    }

    private static String unquoted(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isQuote(s.charAt(start))) {
            start++;
        }
        while (end > start && isQuote(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean isQuote(char c) {
        return c == '"' || c == '\'' || c == '`' || c == '[' || c == ']' || c == '\u201C' || c == '\u201D';
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    private static void addWords(String value, Set<String> out) {
        int i = 0;
        int n = value.length();
        while (i < n) {
            while (i < n && !isWordChar(value.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && isWordChar(value.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(value.substring(start, i));
            }
        }
    }

    private static void collect(JsonNode node, List<String> out, int depth) {
        if (out.size() >= MAX_VALUES || depth > MAX_DEPTH) {
            return;
        }
        if (node.isString()) {
            add(node.stringValue(), out);
        } else if (node.isNumber() || node.isBoolean()) {
            add(node.asString(), out);
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (field.getKey().equals("_meta")) {
                    continue; // protocol bookkeeping, not what the caller wrote
                }
                add(field.getKey(), out);
                collect(field.getValue(), out, depth + 1);
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                collect(item, out, depth + 1);
            }
        }
    }

    private static void add(String s, List<String> out) {
        if (out.size() < MAX_VALUES && !s.isBlank()) {
            out.add(s.length() > MAX_VALUE_CHARS ? s.substring(0, MAX_VALUE_CHARS) : s);
        }
    }

    private static List<String> lower(List<String> strings) {
        List<String> out = new ArrayList<>(strings.size());
        for (String s : strings) {
            out.add(s.toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
