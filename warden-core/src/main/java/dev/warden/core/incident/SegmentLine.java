package dev.warden.core.incident;

import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * One whole line of a segment ({@code bytes} from {@code start} to {@code end}, its newline), read
 * no further than a reader needs: a search passes most records over by the time and code at the
 * head of their line, and parses only those it keeps.
 */
record SegmentLine(byte[] bytes, int start, int end) {

    private static final System.Logger LOG = System.getLogger(FileIncidentStore.class.getName());

    /** How every record line starts: IncidentJson writes these fields first, in this order. */
    private static final byte[] TYPE_AND_REF = "{\"type\":\"incident\",\"ref\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TIME = "\",\"time\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CODE = "\",\"code\":\"".getBytes(StandardCharsets.US_ASCII);
    /** Past the longest head: the fields above, a ref, an instant with nanoseconds and a code name. */
    private static final int HEAD = 160;
    private static final int[] SCALE = {100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    /** What a record line says of itself in its first bytes. */
    record Head(Instant time, String code) {
    }

    /**
     * The record's time and code, read from the line's first bytes without parsing it; empty when
     * the line does not start as Warden writes a record (then only {@link #incident()} can tell).
     */
    Optional<Head> head() {
        int limit = Math.min(end, start + HEAD);
        int timeKey = start + TYPE_AND_REF.length + Ref.TEXT_LENGTH;
        if (!at(start, TYPE_AND_REF, limit) || !at(timeKey, TIME, limit)) {
            return Optional.empty();
        }
        int timeAt = timeKey + TIME.length;
        int timeEnd = quote(timeAt, limit);
        if (timeEnd < 0 || !at(timeEnd, CODE, limit)) {
            return Optional.empty();
        }
        int codeAt = timeEnd + CODE.length;
        int codeEnd = quote(codeAt, limit);
        Instant time = codeEnd < 0 ? null : instant(timeAt, timeEnd);
        return time == null ? Optional.empty()
                : Optional.of(new Head(time, new String(bytes, codeAt, codeEnd - codeAt, StandardCharsets.US_ASCII)));
    }

    /** The record, parsed; empty (and logged) when the line is not one. */
    Optional<Incident> incident() {
        try {
            return Optional.of(IncidentJson.fromJson(Json.mapper().readTree(new String(bytes, start, end - start,
                    StandardCharsets.UTF_8))));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "incident store: skipping an unreadable record");
            return Optional.empty();
        }
    }

    private boolean at(int from, byte[] expected, int limit) {
        if (from + expected.length > limit) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (bytes[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private int quote(int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (bytes[i] == '"') {
                return i;
            }
        }
        return -1;
    }

    /**
     * An instant as {@link Instant#toString()} writes one from year 0 to 9999
     * ({@code 2026-11-30T10:15:00Z}, with {@code .} and up to nine digits before the {@code Z} when
     * it has a fraction), read field by field: {@code Instant.parse} costs a search of 50 000
     * records most of its time. Null for anything else.
     */
    private Instant instant(int from, int to) {
        int length = to - from;
        if (length < 20 || length == 21 || length > 30 || bytes[to - 1] != 'Z' || bytes[from + 4] != '-'
                || bytes[from + 7] != '-' || bytes[from + 10] != 'T' || bytes[from + 13] != ':'
                || bytes[from + 16] != ':' || (length > 20 && bytes[from + 19] != '.')) {
            return null;
        }
        int year = digits(from, 4);
        int month = digits(from + 5, 2);
        int day = digits(from + 8, 2);
        int hour = digits(from + 11, 2);
        int minute = digits(from + 14, 2);
        int second = digits(from + 17, 2);
        int fraction = length > 20 ? digits(from + 20, length - 21) : 0;
        if ((year | month | day | hour | minute | second | fraction) < 0) {
            return null;
        }
        int nanos = length > 20 ? fraction * SCALE[length - 22] : 0;
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException outOfRange) {
            return null;
        }
    }

    /** The decimal number of {@code count} ASCII digits at {@code from}; -1 if one is not a digit. */
    private int digits(int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
