package dev.warden.client.auth;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The parameters of a {@code Bearer} challenge in {@code WWW-Authenticate} (RFC 6750 §3, RFC 9728
 * §5.1). Parsed by a hand-written scanner, linear in the header's length: the header is the
 * server's, so untrusted.
 */
record Challenge(Optional<String> resourceMetadata, Set<String> scopes, Optional<String> error) {

    static final Challenge NONE = new Challenge(Optional.empty(), Set.of(), Optional.empty());
    /** Longer headers are not read at all: no real challenge comes near this. */
    static final int MAX_HEADER = 8192;

    Challenge {
        scopes = Set.copyOf(scopes);
    }

    boolean insufficientScope() {
        return error.filter("insufficient_scope"::equals).isPresent();
    }

    /** The first {@code Bearer} challenge among the header values; {@link #NONE} when there is none. */
    static Challenge bearer(Iterable<String> headers) {
        for (String header : headers) {
            if (header.length() > MAX_HEADER) {
                continue;
            }
            Optional<Challenge> found = new Scanner(header).bearer();
            if (found.isPresent()) {
                return found.get();
            }
        }
        return NONE;
    }

    /** challenge = scheme [ 1*SP #auth-param ]; challenges are comma-separated like the params. */
    private static final class Scanner {
        private final String s;
        private int i;

        Scanner(String s) {
            this.s = s;
        }

        Optional<Challenge> bearer() {
            while (i < s.length()) {
                skip(" \t,");
                String scheme = token();
                if (scheme.isEmpty()) {
                    return Optional.empty();
                }
                java.util.Map<String, String> params = params();
                if (scheme.equalsIgnoreCase("Bearer")) {
                    String scope = params.getOrDefault("scope", "");
                    Set<String> scopes = new LinkedHashSet<>(Arrays.asList(scope.trim().split(" +")));
                    scopes.remove("");
                    return Optional.of(new Challenge(Optional.ofNullable(params.get("resource_metadata")), scopes,
                            Optional.ofNullable(params.get("error"))));
                }
            }
            return Optional.empty();
        }

        /** auth-params up to the next scheme (a token not followed by '='), or the end. */
        private java.util.Map<String, String> params() {
            java.util.Map<String, String> params = new java.util.HashMap<>();
            while (i < s.length()) {
                skip(" \t,");
                int mark = i;
                String name = token();
                skip(" \t");
                if (name.isEmpty() || i >= s.length() || s.charAt(i) != '=') {
                    i = mark; // the next challenge's scheme (or junk: stop)
                    if (name.isEmpty()) {
                        i = s.length();
                    }
                    return params;
                }
                i++;
                skip(" \t");
                String value = i < s.length() && s.charAt(i) == '"' ? quoted() : token();
                params.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
            }
            return params;
        }

        private String token() {
            int start = i;
            while (i < s.length() && isTokenChar(s.charAt(i))) {
                i++;
            }
            return s.substring(start, i);
        }

        private String quoted() {
            StringBuilder b = new StringBuilder();
            i++;
            while (i < s.length() && s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\' && i < s.length()) {
                    c = s.charAt(i++);
                }
                b.append(c);
            }
            i++;
            return b.toString();
        }

        private void skip(String chars) {
            while (i < s.length() && chars.indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private static boolean isTokenChar(char c) {
            return c > 0x20 && c < 0x7F && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
        }
    }
}
