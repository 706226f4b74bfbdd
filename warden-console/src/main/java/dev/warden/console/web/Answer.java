package dev.warden.console.web;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * What the console answers one request with: a status, headers of its own and a body. The
 * security headers every answer carries are added by {@link ConsoleHandler}, not here.
 */
public record Answer(int status, Map<String, String> headers, byte[] body) {

    /** Between two Set-Cookie values in one header entry (no cookie holds a line break); each is sent on its own. */
    public static final String COOKIE_SEPARATOR = "\n";

    public Answer {
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
    }

    public static Answer html(int status, String page) {
        return new Answer(status, Map.of("Content-Type", "text/html; charset=utf-8"),
                page.getBytes(StandardCharsets.UTF_8));
    }

    public static Answer css(String css) {
        return new Answer(200, Map.of("Content-Type", "text/css; charset=utf-8"), css.getBytes(StandardCharsets.UTF_8));
    }

    /** Fixed text only: refusals and errors name nothing from the request. */
    public static Answer plain(int status, String text, Map<String, String> headers) {
        java.util.Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Content-Type", "text/plain; charset=utf-8");
        return new Answer(status, all, (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    public static Answer plain(int status, String text) {
        return plain(status, text, Map.of());
    }

    /** See {@code location}, a path of the console's own. */
    public static Answer seeOther(String location) {
        return new Answer(303, Map.of("Location", location), new byte[0]);
    }
}
