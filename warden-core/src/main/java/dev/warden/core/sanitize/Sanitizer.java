package dev.warden.core.sanitize;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.SqlStates;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.sanitize.credential.SecretDetector;
import dev.warden.core.sanitize.database.DatabaseContextDetector;
import dev.warden.core.sanitize.database.DatabaseDetailDetector;
import dev.warden.core.sanitize.database.DatabaseErrorDetector;
import dev.warden.core.sanitize.database.DatabaseMessages;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import dev.warden.core.sanitize.injection.InjectionDetector;
import dev.warden.core.sanitize.path.FilePathDetector;
import dev.warden.core.sanitize.pii.PiiDetector;
import dev.warden.core.sanitize.scan.Sentences;
import dev.warden.core.sanitize.scan.WordScanner;
import dev.warden.core.sanitize.scan.WordTable;
import dev.warden.core.sanitize.scan.Words;
import dev.warden.core.sanitize.topology.ServerNameDetector;
import dev.warden.core.sanitize.topology.TopologyDetector;
import dev.warden.core.sanitize.trace.HtmlStackTraceDetector;
import dev.warden.core.sanitize.trace.StackTraceDetector;
import dev.warden.core.sanitize.trace.TraceMemberDetector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns untrusted text (an upstream's error message, {@code error.data}, {@code isError} content, a
 * log notification) into text that may reach the model, under a {@link Policy}. Every detector is
 * linear in the input, so the whole pass is. The policies in detail: docs/design/sanitizer.md.
 */
public final class Sanitizer {

    public static final int DEFAULT_MAX_OUTPUT_CHARS = 4000;
    private static final String TRUNCATION_MARK = " [truncated]";
    /** The word classes of every word scanner in one table: each word of a text is looked up once. */
    private static final WordTable WORD_CLASSES = WordTable.merged(InjectionDetector.WORD_CLASSES,
            DatabaseErrorDetector.WORD_CLASSES);

    private final List<Detector> detectors;
    private final int maxOutputChars;
    private final Set<Category> enabled;

    private Sanitizer(Builder builder) {
        this.detectors = List.copyOf(builder.detectors);
        this.maxOutputChars = builder.maxOutputChars;
        this.enabled = EnumSet.copyOf(builder.enabled);
    }

    public static Sanitizer ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The longest output this sanitizer can produce, whatever the input. */
    public int maxOutputChars() {
        return maxOutputChars + TRUNCATION_MARK.length();
    }

    public SanitizedText sanitize(String untrusted, Policy policy) {
        return sanitize(untrusted, policy, ErrorCode.INTERNAL_ERROR);
    }

    /**
     * @param fallbackCode the code whose generic message {@link Policy#STRICT} (and injection) produces
     */
    public SanitizedText sanitize(String untrusted, Policy policy, ErrorCode fallbackCode) {
        return sanitize(untrusted, policy, fallbackCode, CallerInput.none());
    }

    /**
     * As {@link #sanitize(String, Policy, ErrorCode)}, keeping what the caller sent: a finding whose
     * text is the caller's own ({@link CallerInput#owns}) is no finding (a path it asked for, a
     * column its SQL names), unless it is a secret, an injection or a stack trace, which are
     * caught whoever sent them.
     */
    public SanitizedText sanitize(String untrusted, Policy policy, ErrorCode fallbackCode, CallerInput caller) {
        Objects.requireNonNull(untrusted, "untrusted");
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(policy, "policy");
        // The word index notes whether cleaning can change anything: usually not, and then the
        // clean pass and a second index are saved.
        Words words = Words.of(untrusted, WORD_CLASSES);
        String text = words.maybeUnclean() ? clean(untrusted) : untrusted;
        if (text != untrusted) {
            words = Words.of(text, WORD_CLASSES);
        }
        List<Finding> findings = detect(text, words);
        if (!caller.isEmpty()) {
            findings = withoutCallersOwn(text, findings, caller);
        }
        findings = Guidance.without(text, findings, caller);
        findings = databaseMessagesOutOfTraces(text, findings);
        Map<Finding, Optional<ToolFailure>> databaseMappings = databaseMappings(text, findings);
        Optional<ErrorCode> suggested = databaseMappings.values().stream().findFirst()
                .flatMap(mapping -> mapping.map(ToolFailure::code));
        return switch (policy) {
            case PASSTHROUGH -> new SanitizedText(untrusted, findings, policy, suggested, false);
            case STRICT -> new SanitizedText(suggested.orElse(fallbackCode).defaultMessage(), findings, policy,
                    suggested, false);
            case REDACT -> redact(text, injectionSentences(text, findings), databaseMappings, suggested);
        };
    }

    /**
     * Sanitizes a JSON value as the structure it is: each string where it stands (so a stack trace in
     * a string value is seen as lines), JSON encoded into strings decoded and sanitized inside,
     * secret-named members' values redacted; the result has the same shape and is valid JSON, and is
     * the very node given when nothing changed. See {@link JsonSanitizer} for the rules.
     *
     * @param fallbackCode the code whose generic message strict (and injection) puts in string values
     */
    public SanitizedJson sanitizeJson(tools.jackson.databind.JsonNode value, Policy policy, ErrorCode fallbackCode,
                                      CallerInput caller) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(fallbackCode, "fallbackCode");
        Objects.requireNonNull(caller, "caller");
        return new JsonSanitizer(this, fallbackCode, caller).run(value, policy);
    }

    public SanitizedJson sanitizeJson(tools.jackson.databind.JsonNode value, Policy policy) {
        return sanitizeJson(value, policy, ErrorCode.INTERNAL_ERROR, CallerInput.none());
    }

    /** The characters of text one call may put out (the cap of a text, the shared budget of a tree's strings). */
    int outputBudget() {
        return maxOutputChars;
    }

    /** Only the findings, for audit and the auditor. */
    public List<Finding> detect(String cleanedText) {
        return detect(cleanedText, Words.of(cleanedText, WORD_CLASSES));
    }

    private List<Finding> detect(String cleanedText, Words words) {
        List<Finding> findings = new ArrayList<>();
        for (Detector detector : detectors) {
            if (enabled.contains(detector.category())) {
                try {
                    if (detector instanceof WordScanner scanner) {
                        scanner.scan(words, findings);
                    } else {
                        detector.scan(cleanedText, findings);
                    }
                } catch (RuntimeException e) {
                    // A detector bug must not let text through unexamined: treat the whole text as sensitive.
                    findings.add(new Finding(detector.category(), "detector-failure", 0, cleanedText.length()));
                }
            }
        }
        findings.sort(Comparator.comparingInt(Finding::start).thenComparing(f -> -f.end()));
        return Markers.outside(cleanedText, findings);
    }

    /**
     * An injection loses its sentence, never the whole message: the rest (what was not found, the
     * reason the call failed) still tells the model what to fix. Each injection finding is widened
     * to its sentence ({@link Sentences}); scans start where the last widened one ended, so the
     * pass stays linear.
     */
    private static List<Finding> injectionSentences(String text, List<Finding> findings) {
        if (findings.stream().noneMatch(f -> f.category() == Category.INJECTION)) {
            return findings;
        }
        List<Finding> out = new ArrayList<>(findings.size());
        int covered = 0;
        for (Finding f : findings) {
            if (f.category() != Category.INJECTION) {
                out.add(f);
            } else if (f.end() > covered) {
                int start = f.start() < covered ? f.start() : Sentences.start(text, f.start(), covered);
                covered = Sentences.end(text, f.end(), text.length());
                out.add(new Finding(Category.INJECTION, f.kind(), start, covered));
            }
        }
        out.sort(Comparator.comparingInt(Finding::start).thenComparing(f -> -f.end()));
        return out;
    }

    private static List<Finding> withoutCallersOwn(String text, List<Finding> findings, CallerInput caller) {
        List<Finding> kept = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            boolean mayBeOwn = switch (f.category()) {
                // a kept database message and its prefix are structure, not something the caller could send
                case DATABASE -> f.length() <= CallerInput.MAX_SPAN_CHARS && !DatabaseMessages.structural(f);
                case FILE_PATH, TOPOLOGY, PII -> f.length() <= CallerInput.MAX_SPAN_CHARS;
                case SECRET, INJECTION, STACK_TRACE -> false;
            };
            if (!(mayBeOwn && caller.owns(text.substring(f.start(), f.end())))) {
                kept.add(mayBeOwn && f.category() == Category.FILE_PATH ? withoutCallersTail(text, f, caller) : f);
            }
        }
        return kept;
    }

    /**
     * A database message a program printed as its exception's line ({@code Caused by:
     * org.postgresql.util.PSQLException: ERROR: column "emial" does not exist}) is what the model
     * needs from the trace: it is read as the database message it is (its names redacted unless the
     * caller's), and only the rest of the trace around it is removed. Other exception lines go
     * with their trace: their words (class and method names) are the server's.
     */
    private static List<Finding> databaseMessagesOutOfTraces(String text, List<Finding> findings) {
        List<Finding> messages = null;
        for (Finding f : findings) {
            if (f.category() == Category.DATABASE && f.kind().equals(DatabaseMessages.MESSAGE)) {
                if (messages == null) {
                    messages = new ArrayList<>();
                }
                messages.add(f);
            }
        }
        if (messages == null) {
            return findings;
        }
        List<Finding> out = new ArrayList<>(findings.size() + 2);
        for (Finding f : findings) {
            if (f.category() != Category.STACK_TRACE) {
                out.add(f);
                continue;
            }
            int from = f.start();
            for (Finding m : messages) {
                if (m.start() >= from && m.end() <= f.end() && m.start() < m.end()) {
                    if (m.start() > from) {
                        out.add(new Finding(f.category(), f.kind(), from, m.start()));
                    }
                    from = m.end() < text.length() && text.charAt(m.end()) == '\n' ? m.end() + 1 : m.end();
                }
            }
            if (from < f.end()) {
                out.add(new Finding(f.category(), f.kind(), from, f.end()));
            }
        }
        out.sort(Comparator.comparingInt(Finding::start).thenComparing(f -> -f.end()));
        return out;
    }

    /**
     * A path the server resolved from one the caller gave ({@code /srv/app/reports/q3.txt} for
     * {@code reports/q3.txt}): only the server's part is redacted, the caller's own tail (from a
     * separator on) stays, so the model sees which of its paths failed.
     */
    private static Finding withoutCallersTail(String text, Finding f, CallerInput caller) {
        for (int i = f.start() + 1; i < f.end() - 1; i++) {
            char c = text.charAt(i);
            if ((c == '/' || c == '\\') && caller.owns(text.substring(i + 1, f.end()))) {
                return new Finding(f.category(), f.kind(), f.start(), i);
            }
        }
        return f;
    }

    private SanitizedText redact(String text, List<Finding> findings,
                                 Map<Finding, Optional<ToolFailure>> databaseMappings, Optional<ErrorCode> suggested) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), maxOutputChars) + 32);
        int cursor = 0;
        for (Finding f : findings) {
            if (f.end() <= cursor || f.kind().equals(DatabaseMessages.MESSAGE)) {
                continue; // inside a span already replaced, or a kept database message (its parts are findings)
            }
            int start = Math.max(f.start(), cursor);
            out.append(text, cursor, start);
            out.append(replacement(f, databaseMappings));
            cursor = f.end();
            if (out.length() > maxOutputChars) {
                break;
            }
        }
        if (cursor < text.length() && out.length() <= maxOutputChars) {
            out.append(text, cursor, Math.min(text.length(), cursor + maxOutputChars + 1 - out.length()));
        }
        boolean truncated = out.length() > maxOutputChars
                || (cursor < text.length() && out.length() >= maxOutputChars);
        if (out.length() > maxOutputChars) {
            int cut = maxOutputChars;
            if (Character.isHighSurrogate(out.charAt(cut - 1))) {
                cut--;
            }
            out.setLength(cut);
        }
        if (truncated) {
            out.append(TRUNCATION_MARK);
        }
        return new SanitizedText(out.toString(), findings, Policy.REDACT, suggested, truncated);
    }

    private static String replacement(Finding f, Map<Finding, Optional<ToolFailure>> databaseMappings) {
        Optional<ToolFailure> mapped = databaseMappings.get(f);
        if (mapped != null) {
            return mapped.map(ToolFailure::safeMessage).orElse("[redacted:database-error]");
        }
        if (f.category() == Category.STACK_TRACE) {
            return "[redacted:stack-trace]";
        }
        if (f.category() == Category.INJECTION) {
            return "[redacted:injection]";
        }
        if (f.kind().equals(DatabaseMessages.PREFIX)) {
            return ""; // a driver's exception name and vendor code: the code goes out as Warden's own
        }
        return "[redacted:" + f.kind() + "]";
    }

    /**
     * Each database error's safe failure by its SQLSTATE (or vendor code), worked out once per
     * finding and in finding order: the first one also suggests the failure's code.
     */
    private static Map<Finding, Optional<ToolFailure>> databaseMappings(String text, List<Finding> findings) {
        Map<Finding, Optional<ToolFailure>> mappings = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.category() == Category.DATABASE && (f.kind().equals(DatabaseMessages.ERROR)
                    || f.kind().equals(DatabaseMessages.MESSAGE))) {
                // The identifying part of a driver message is at its start; a long span need not be copied whole.
                String head = text.substring(f.start(), Math.min(f.end(), f.start() + 2048));
                mappings.put(f, DatabaseErrorDetector.sqlStateOf(head).flatMap(SqlStates::forReportedState));
            }
        }
        return mappings;
    }

    /**
     * The text as the detectors read it, in which a {@link Finding}'s span counts (what
     * {@link #detect} expects, and where a finding's characters are found again, say to fingerprint
     * them): ANSI escape sequences and control characters stripped (newline and tab kept), CR and
     * CRLF turned into newlines, unpaired surrogates (broken UTF-16, what invalid UTF-8 decodes
     * into) replaced with U+FFFD.
     */
    public static String clean(String s) {
        int n = s.length();
        StringBuilder out = null;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                // printable ASCII: by far the common case
                if (out != null) {
                    out.append(c);
                }
                i++;
                continue;
            }
            boolean keep = c >= 0x20 && c != 0x7F && !(c >= 0x80 && c < 0xA0) && !Character.isSurrogate(c)
                    && c != '\u2028' && c != '\u2029' && !(c >= '\u202A' && c <= '\u202E')
                    && !(c >= '\u2066' && c <= '\u2069') && c != '\u200B' && c != '\uFEFF';
            if (keep || c == '\n' || c == '\t') {
                if (out != null) {
                    out.append(c);
                }
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(n);
                out.append(s, 0, i);
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(i + 1));
                i += 2;
                continue;
            }
            if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
                i++;
                continue;
            }
            if (c == 0x1B) {
                i = skipEscape(s, i);
                continue;
            }
            if (c == '\r') {
                if (i + 1 >= n || s.charAt(i + 1) != '\n') {
                    out.append('\n');
                }
                i++;
                continue;
            }
            i++; // drop other control characters and invisible formatting
        }
        return out == null ? s : out.toString();
    }

    /** Skips an ANSI escape: CSI ({@code ESC [ … final}), OSC ({@code ESC ] … BEL/ST}) or a two-byte escape. */
    private static int skipEscape(String s, int at) {
        int n = s.length();
        int i = at + 1;
        if (i >= n) {
            return i;
        }
        char kind = s.charAt(i);
        if (kind == '[') {
            i++;
            while (i < n && !(s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7E) && i - at < 64) {
                i++;
            }
            return Math.min(n, i + 1);
        }
        if (kind == ']') {
            i++;
            while (i < n && s.charAt(i) != 0x07 && !(s.charAt(i) == 0x1B && i + 1 < n && s.charAt(i + 1) == '\\')
                    && i - at < 4096) {
                i++;
            }
            return Math.min(n, s.charAt(Math.min(i, n - 1)) == 0x07 ? i + 1 : i + 2);
        }
        return i + 1;
    }

    public static final class Builder {
        private final List<Detector> detectors = new ArrayList<>(List.of(new StackTraceDetector(), new HtmlStackTraceDetector(),
                new TraceMemberDetector(),
                new DatabaseErrorDetector(), new DatabaseContextDetector(), new DatabaseDetailDetector(), new SecretDetector(),
                new FilePathDetector(), new TopologyDetector(),
                new InjectionDetector(), new ServerNameDetector()));
        private int maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS;
        private final Set<Category> enabled = EnumSet.allOf(Category.class);

        private Builder() {
        }

        public Builder maxOutputChars(int max) {
            if (max < 64) {
                throw new IllegalArgumentException("maxOutputChars must be at least 64, got " + max);
            }
            this.maxOutputChars = max;
            return this;
        }

        /** Turns a category off (the gateway does this for successful results, where paths are content). */
        public Builder disable(Category category) {
            enabled.remove(Objects.requireNonNull(category, "category"));
            return this;
        }

        /**
         * Also finds personal data ({@link PiiDetector}): off by default, as a result or an error
         * that names a person may be exactly what the caller asked for.
         */
        public Builder pii() {
            return detector(new PiiDetector());
        }

        public Builder detector(Detector detector) {
            detectors.add(Objects.requireNonNull(detector, "detector"));
            return this;
        }

        public Sanitizer build() {
            return new Sanitizer(this);
        }
    }
}
