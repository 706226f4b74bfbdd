package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.Text;
import java.util.List;

/**
 * PEM private key blocks (RFC 7468, RFC 1421 headers, OpenPGP armor): BEGIN line, optional header
 * lines, base64 body, END line, the label ending in {@code PRIVATE KEY} or {@code PRIVATE KEY BLOCK};
 * one finding per block. Lines may break on real or escaped {@code \n} (a key in JSON or .env) and
 * be indented (YAML). A body under {@value #MIN_BODY} base64 characters is no key (an Ed25519 key has
 * 64), so code naming the header and docs eliding the body are left; a block cut off before END is
 * redacted to its last full-width line.
 */
public final class PemPrivateKeys {

    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";
    private static final int MAX_LABEL = 64;
    private static final int MIN_BODY = 48;
    private static final int MAX_HEADER_LINES = 8;
    private static final int MAX_HEADER_LINE = 256;

    private PemPrivateKeys() {
    }

    /** Matches at {@code at}, a '-'; returns where scanning resumes, or -1. */
    public static int match(String text, int at, List<CredentialFinding> out) {
        if (!text.startsWith(BEGIN, at) || (at > 0 && text.charAt(at - 1) == '-')) {
            return -1;
        }
        int labelStart = at + BEGIN.length();
        int labelEnd = labelEnd(text, labelStart);
        if (labelEnd < 0 || !isPrivateKeyLabel(text, labelStart, labelEnd)) {
            return -1;
        }
        int i = labelEnd + DASHES.length();
        int base64 = 0;
        int lineWidth = 0;
        int fullLinesEnd = -1;
        boolean lastLineSeen = false;
        int headerLines = 0;
        while (true) {
            i = skipLineBreaks(text, i);
            if (text.startsWith(END, i)) {
                int endLabelEnd = labelEnd(text, i + END.length());
                if (endLabelEnd >= 0 && base64 >= MIN_BODY) {
                    return found(at, endLabelEnd + DASHES.length(), out);
                }
                break;
            }
            if (lastLineSeen) {
                break;
            }
            if (base64 == 0 && headerLines < MAX_HEADER_LINES) {
                int headerEnd = headerLine(text, i);
                if (headerEnd >= 0) {
                    headerLines++;
                    i = headerEnd;
                    continue;
                }
            }
            int run = base64RunEnd(text, i);
            int width = run - i;
            if (width == 0 || (lineWidth > 0 && width > lineWidth)) {
                break;
            }
            if (lineWidth == 0) {
                lineWidth = width;
            }
            base64 += width;
            if (width == lineWidth) {
                fullLinesEnd = run;
            } else {
                lastLineSeen = true; // a shorter line ends the body: only the END line may follow
            }
            i = run;
        }
        // Cut off before END: the full-width lines are surely key; a short line after them may be prose.
        return base64 >= MIN_BODY && fullLinesEnd > 0 ? found(at, fullLinesEnd, out) : -1;
    }

    private static int found(int start, int end, List<CredentialFinding> out) {
        out.add(new CredentialFinding(CredentialKind.PRIVATE_KEY, start, end - start));
        return end;
    }

    /** The index of the "-----" closing a label that starts at {@code from}, on the same line; or -1. */
    private static int labelEnd(String text, int from) {
        int limit = Math.min(text.length(), from + MAX_LABEL);
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '-') {
                return text.startsWith(DASHES, i) ? i : -1;
            }
            if (!Text.isUpper(c) && !Text.isDigit(c) && c != ' ') {
                return -1;
            }
        }
        return -1;
    }

    private static boolean isPrivateKeyLabel(String text, int start, int end) {
        String label = text.substring(start, end);
        return label.endsWith("PRIVATE KEY") || label.endsWith("PRIVATE KEY BLOCK");
    }

    /** Skips blanks, real line ends and written-out {@code \n}, {@code \r}, {@code \t}. */
    private static int skipLineBreaks(String text, int from) {
        int i = from;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                i++;
            } else if (c == '\\' && i + 1 < n && (text.charAt(i + 1) == 'n' || text.charAt(i + 1) == 'r'
                    || text.charAt(i + 1) == 't')) {
                i += 2;
            } else {
                return i;
            }
        }
        return i;
    }

    /**
     * {@code Proc-Type: 4,ENCRYPTED}, {@code DEK-Info: …}, {@code Version: …}, {@code Comment: …}:
     * a name of letters and dashes, a colon, and the rest of the line. Returns the line's end or -1.
     */
    private static int headerLine(String text, int from) {
        int i = from;
        int limit = Math.min(text.length(), from + 32);
        while (i < limit && (Text.isUpper(text.charAt(i)) || Text.isLower(text.charAt(i)) || text.charAt(i) == '-')) {
            i++;
        }
        if (i == from || i >= text.length() || text.charAt(i) != ':') {
            return -1;
        }
        int lineLimit = Math.min(text.length(), i + MAX_HEADER_LINE);
        for (int j = i + 1; j < lineLimit; j++) {
            char c = text.charAt(j);
            if (c == '\n' || c == '\r' || (c == '\\' && j + 1 < text.length() && text.charAt(j + 1) == 'n')) {
                return j;
            }
        }
        return -1;
    }

    private static int base64RunEnd(String text, int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (!Text.isAlnum(c) && c != '+' && c != '/' && c != '=') {
                break;
            }
            i++;
        }
        return i;
    }
}
