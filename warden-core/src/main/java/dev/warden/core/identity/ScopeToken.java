package dev.warden.core.identity;

/**
 * RFC 6749 section 3.3's grammar for one scope: {@code scope-token = 1*( %x21 / %x23-5B / %x5D-7E )},
 * printable ASCII without space, quote or backslash. The one check for scopes wherever they are
 * configured, minted or put in a header. A comma is a legal scope character.
 */
public final class ScopeToken {

    private ScopeToken() {
    }

    public static boolean valid(String scope) {
        if (scope == null || scope.isEmpty()) {
            return false;
        }
        for (int i = 0; i < scope.length(); i++) {
            char c = scope.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
