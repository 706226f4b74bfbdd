package dev.warden.console.page;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the incident search asks, from the page's query: the ref (which opens that incident),
 * the code, the tool and the caller (parts of their names), the upstream, and the period: how far
 * back, or from and to a minute (UTC) when an operator knows when a client failed. Unknown values
 * fall back to "any" rather than fail: it is a search box; a time that cannot be read is said on the
 * page ({@link #unreadTimes}). The code is compared by its name with each incident's (no code is
 * made from what a request says).
 */
public record IncidentSearch(String ref, String code, String tool, String caller, String upstream,
        Since since, Optional<Instant> from, Optional<Instant> to, List<String> unreadTimes) {

    public IncidentSearch {
        unreadTimes = List.copyOf(unreadTimes);
    }

    /** The same search without a time period of its own: a preset only. */
    public IncidentSearch(String ref, String code, String tool, String caller, String upstream, Since since) {
        this(ref, code, tool, caller, upstream, since, Optional.empty(), Optional.empty(), List.of());
    }

    /** Where the period starts: {@code from} when given, else {@code since} back from now. */
    public Instant start(Instant now) {
        return from.orElseGet(() -> now.minus(since.age()));
    }

    /** How far back the search looks, as the page offers it. */
    public enum Since {
        M15("15m", Duration.ofMinutes(15)), H1("1h", Duration.ofHours(1)), H6("6h", Duration.ofHours(6)),
        H24("24h", Duration.ofHours(24)), D7("7d", Duration.ofDays(7)), D14("14d", Duration.ofDays(14));

        private final String label;
        private final Duration age;

        Since(String label, Duration age) {
            this.label = label;
            this.age = age;
        }

        public String label() {
            return label;
        }

        public Duration age() {
            return age;
        }

        static Since of(String label) {
            for (Since s : values()) {
                if (s.label.equals(label)) {
                    return s;
                }
            }
            return H24;
        }
    }

    /** The longest value kept of a field: the rest cannot be part of a name worth searching. */
    static final int MAX_FIELD = 200;

    public static IncidentSearch of(Map<String, String> query) {
        List<String> unread = new java.util.ArrayList<>();
        Optional<Instant> from = minute(query, "from", unread);
        Optional<Instant> to = minute(query, "to", unread).map(t -> t.plus(1, ChronoUnit.MINUTES)); // to the end of that minute
        return new IncidentSearch(asciiLowerCase(field(query, "ref")), field(query, "code").toUpperCase(Locale.ROOT), field(query, "tool"), field(query, "caller"),
                field(query, "upstream"), Since.of(query.getOrDefault("since", "")), from, to, unread);
    }

    /**
     * A ref as pasted, in any case, as refs are made: lower case. Only ASCII letters are lowered, so
     * nothing else becomes one (the Kelvin sign would lower to {@code k}).
     */
    public static String asciiLowerCase(String value) {
        char[] chars = value.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] >= 'A' && chars[i] <= 'Z') {
                chars[i] = (char) (chars[i] + ('a' - 'A'));
            }
        }
        return new String(chars);
    }

    /** A minute as the page's datetime-local field sends it ({@code 2026-11-29T10:15}), in UTC. */
    private static Optional<Instant> minute(Map<String, String> query, String name, List<String> unread) {
        String v = field(query, name);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDateTime.parse(v).truncatedTo(ChronoUnit.MINUTES).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            unread.add(name);
            return Optional.empty();
        }
    }

    /** The value of the page's {@code from} or {@code to} field for a minute, as it was asked. */
    static String field(Optional<Instant> minute, boolean end) {
        return minute.map(t -> end ? t.minus(1, ChronoUnit.MINUTES) : t)
                .map(t -> LocalDateTime.ofInstant(t, ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES).toString())
                .orElse("");
    }

    private static String field(Map<String, String> query, String name) {
        return kept(query.getOrDefault(name, ""));
    }

    /**
     * What the search keeps of a field's value: stripped, and its first {@link #MAX_FIELD} chars
     * (one fewer rather than half a surrogate pair). A link the console makes to a search carries
     * only this, so it stays within the query's bound whatever the name.
     */
    static String kept(String value) {
        String v = value.strip();
        if (v.length() <= MAX_FIELD) {
            return v;
        }
        int end = Character.isHighSurrogate(v.charAt(MAX_FIELD - 1)) ? MAX_FIELD - 1 : MAX_FIELD;
        return v.substring(0, end);
    }

    /** Whether an incident's names match the fields given (parts of names, any case). */
    public boolean matches(dev.warden.core.incident.Incident i) {
        return (code.isEmpty() || i.code().name().equals(code)) && contains(i.tool(), tool) && (caller.isEmpty() || contains(i.subject(), caller)
                || contains(i.clientId(), caller)) && (upstream.isEmpty() || i.upstream().filter(upstream::equals)
                .isPresent());
    }

    private static boolean contains(Optional<String> value, String part) {
        return part.isEmpty() || value.map(v -> v.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT)))
                .orElse(false);
    }

    static List<Since> choices() {
        return List.of(Since.values());
    }
}
