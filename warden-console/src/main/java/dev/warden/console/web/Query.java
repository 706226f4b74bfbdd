package dev.warden.console.web;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A request's query string as parameters (the first value of each), split by hand: no regex over what a client sent. */
final class Query {

    /** The longest query read; a longer one is refused (the search fields are short). */
    static final int MAX_CHARS = 4096;

    private Query() {
    }

    /** Empty when the query is too long or malformed. */
    static Optional<Map<String, String>> parse(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return Optional.of(out);
        }
        if (raw.length() > MAX_CHARS) {
            return Optional.empty();
        }
        try {
            for (String pair : raw.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                out.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(out);
    }
}
