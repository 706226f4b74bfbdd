package dev.warden.core.shape;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Reads how long an upstream asked the caller to wait, from the members APIs use for it: seconds in
 * {@code retry_after}, {@code retryAfter}, {@code retry-after}, {@code Retry-After}, {@code retryAfterSeconds};
 * milliseconds in {@code retry_after_ms}, {@code retryAfterMs}; a protobuf {@code Duration} string
 * ({@code "1.5s"}) in {@code retryDelay}. A number may also be a numeric string. An HTTP-date is not
 * read (it needs a clock, and a date from an upstream's clock is no better than its guess).
 */
final class RetryHints {

    private static final String[] SECONDS = {"retry_after", "retryAfter", "retry-after", "Retry-After",
        "retryAfterSeconds", "retry_after_seconds"};
    private static final String[] MILLIS = {"retry_after_ms", "retryAfterMs", "retry-after-ms", "retryAfterMillis"};

    private RetryHints() {
    }

    static Optional<Duration> of(JsonNode object) {
        if (object == null || !object.isObject()) {
            return Optional.empty();
        }
        for (String key : MILLIS) {
            Optional<Duration> d = amount(object.get(key), false);
            if (d.isPresent()) {
                return d;
            }
        }
        for (String key : SECONDS) {
            Optional<Duration> d = amount(object.get(key), true);
            if (d.isPresent()) {
                return d;
            }
        }
        return protobufDuration(object.get("retryDelay"));
    }

    /** A protobuf JSON Duration: decimal seconds with an {@code s} suffix, e.g. {@code "1.500s"}. */
    static Optional<Duration> protobufDuration(JsonNode v) {
        if (v == null || !v.isString()) {
            return Optional.empty();
        }
        String s = v.stringValue();
        if (s.length() < 2 || s.length() > 24 || s.charAt(s.length() - 1) != 's') {
            return Optional.empty();
        }
        return decimalSeconds(s.substring(0, s.length() - 1), true);
    }

    private static Optional<Duration> amount(JsonNode v, boolean seconds) {
        if (v == null) {
            return Optional.empty();
        }
        if (v.isNumber()) {
            double d = v.doubleValue();
            if (!(d >= 0)) {
                return Optional.empty();
            }
            double ms = seconds ? d * 1000 : d;
            long max = Extracted.MAX_RETRY_AFTER.toMillis();
            return Optional.of(ms >= max ? Extracted.MAX_RETRY_AFTER : Duration.ofMillis(Math.round(ms)));
        }
        if (v.isString() && v.stringValue().length() <= 24) {
            return decimalSeconds(v.stringValue().strip(), seconds);
        }
        return Optional.empty();
    }

    /** Digits with at most one dot, nothing else (no sign, no exponent); scanned by hand. */
    private static Optional<Duration> decimalSeconds(String s, boolean seconds) {
        if (s.isEmpty()) {
            return Optional.empty();
        }
        boolean dot = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' && !dot && i > 0 && i < s.length() - 1) {
                dot = true;
            } else if (c < '0' || c > '9') {
                return Optional.empty();
            }
        }
        BigDecimal value = new BigDecimal(s);
        BigDecimal millis = seconds ? value.movePointRight(3) : value;
        if (millis.compareTo(BigDecimal.valueOf(Extracted.MAX_RETRY_AFTER.toMillis())) > 0) {
            return Optional.of(Extracted.MAX_RETRY_AFTER);
        }
        return Optional.of(Duration.ofMillis(millis.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact()));
    }
}
