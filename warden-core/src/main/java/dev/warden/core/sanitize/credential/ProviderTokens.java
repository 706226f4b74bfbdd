package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The documented shapes of {@link CredentialFormats} a redactor is enabled for, indexed by first
 * character so that the scan tests only the shapes that can start where it stands.
 */
public final class ProviderTokens {

    private static final List<TokenShape> SHAPES = CredentialFormats.shapes();

    private final TokenShape[][] byFirstChar = new TokenShape[128][];

    public ProviderTokens(Set<CredentialKind> enabled) {
        List<List<TokenShape>> buckets = new ArrayList<>();
        for (int c = 0; c < 128; c++) {
            buckets.add(new ArrayList<>());
        }
        for (TokenShape shape : SHAPES) {
            if (enabled.contains(shape.kind())) {
                buckets.get(shape.prefix().charAt(0)).add(shape);
            }
        }
        for (int c = 0; c < 128; c++) {
            if (!buckets.get(c).isEmpty()) {
                byFirstChar[c] = buckets.get(c).toArray(TokenShape[]::new);
            }
        }
    }

    /** Is there any shape starting with {@code c}? */
    public boolean mayStartWith(char c) {
        return c < 128 && byFirstChar[c] != null;
    }

    /** Tries the shapes starting with the character at {@code at}; returns where scanning resumes, or -1. */
    public int match(String text, int at, List<CredentialFinding> out) {
        for (TokenShape shape : byFirstChar[text.charAt(at)]) {
            int end = shape.match(text, at, out);
            if (end >= 0) {
                return end;
            }
        }
        return -1;
    }
}
