package dev.warden.console.page;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the incident search asks, from the page's query: the ref (which opens that incident),
 * the code, the tool and the caller (parts of their names), the upstream, and how far back.
 * Unknown values fall back to "any" rather than fail: it is a search box. The code is compared by
 * its name with each incident's (no code is made from what a request says).
 */
public record IncidentSearch(String ref, String code, String tool, String caller, String upstream,
        Since since) {

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
        return new IncidentSearch(field(query, "ref"), field(query, "code").toUpperCase(Locale.ROOT), field(query, "tool"), field(query, "caller"),
                field(query, "upstream"), Since.of(query.getOrDefault("since", "")));
    }

    private static String field(Map<String, String> query, String name) {
        String v = query.getOrDefault(name, "").strip();
        return v.length() > MAX_FIELD ? v.substring(0, MAX_FIELD) : v;
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
