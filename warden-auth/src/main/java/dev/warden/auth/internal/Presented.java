package dev.warden.auth.internal;

import dev.warden.core.identity.Credentials;

/**
 * What a request's credential headers hold, read as RFC 6750 section 2.1 and RFC 9110 section
 * 11.1 ask (the scheme is case-insensitive, the token a {@code b64token}). A request that uses
 * more than one way of presenting a credential, another scheme, or a malformed header is
 * {@link Malformed}: RFC 6750 section 3.1's {@code invalid_request} ("uses more than one method
 * for including an access token, or is otherwise malformed"), not {@code invalid_token}, since no
 * token was judged.
 */
public sealed interface Presented {

    /** Longer than any access token a sane server issues; no parser should see more. */
    int MAX_TOKEN = 16 * 1024;

    String API_KEY_PREFIX = "wdn_";

    record Nothing() implements Presented {
    }

    record Malformed(String reason) implements Presented {
    }

    record Bearer(String token) implements Presented {
    }

    record ApiKey(String key) implements Presented {
    }

    static Presented of(Credentials credentials) {
        if (credentials.authorization().isPresent() && credentials.apiKey().isPresent()) {
            return new Malformed("both an Authorization header and an X-API-Key header");
        }
        if (credentials.apiKey().isPresent()) {
            String key = credentials.apiKey().get().strip();
            if (key.isEmpty() || key.length() > MAX_TOKEN || !b64token(key)) {
                return new Malformed("a malformed X-API-Key header");
            }
            return new ApiKey(key);
        }
        if (credentials.authorization().isEmpty()) {
            return new Nothing();
        }
        String header = credentials.authorization().get().strip();
        int space = header.indexOf(' ');
        String scheme = space < 0 ? header : header.substring(0, space);
        if (!scheme.equalsIgnoreCase("Bearer")) {
            return new Malformed("an Authorization scheme other than Bearer");
        }
        String token = space < 0 ? "" : header.substring(space + 1).strip();
        if (token.isEmpty() || token.length() > MAX_TOKEN || !b64token(token)) {
            return new Malformed("a malformed Bearer token");
        }
        return token.startsWith(API_KEY_PREFIX) ? new ApiKey(token) : new Bearer(token);
    }

    /** RFC 6750's {@code b64token}: {@code 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}. */
    private static boolean b64token(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && tokenChar(s.charAt(i))) {
            i++;
        }
        if (i == 0) {
            return false;
        }
        while (i < n && s.charAt(i) == '=') {
            i++;
        }
        return i == n;
    }

    private static boolean tokenChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
    }
}
