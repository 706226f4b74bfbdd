package dev.warden.core.sanitize.scan;

/**
 * Where a credential may begin and end: not inside a longer identifier ({@code mask_ghp_…},
 * {@code my-AKIA…}), a hex hash or a dotted name. Written-out escapes ({@code \n}) and
 * percent-encoded separators ({@code %3D}) before a token count as separators, since the letter
 * or hex digit that ends them is no part of the token.
 */
public final class TokenBoundary {

    private TokenBoundary() {
    }

    static boolean isTokenChar(char c) {
        return Text.isAlnum(c) || c == '_' || c == '-';
    }

    /** May a token start at {@code at}? */
    public static boolean before(String text, int at) {
        if (at == 0) {
            return true;
        }
        char previous = text.charAt(at - 1);
        if (!isTokenChar(previous)) {
            return true;
        }
        if ((previous == 'n' || previous == 'r' || previous == 't') && at >= 2 && text.charAt(at - 2) == '\\') {
            return true;
        }
        return at >= 3 && text.charAt(at - 3) == '%' && isHex(text.charAt(at - 2)) && isHex(previous);
    }

    /** May a token end at {@code at}? Not before a token character, nor before a dot that goes on with one. */
    public static boolean after(String text, int at) {
        if (at >= text.length()) {
            return true;
        }
        char next = text.charAt(at);
        if (isTokenChar(next)) {
            return false;
        }
        return !(next == '.' && at + 1 < text.length() && Text.isAlnum(text.charAt(at + 1)));
    }

    private static boolean isHex(char c) {
        return Text.isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
