package dev.warden.core.sanitize;

import dev.warden.core.sanitize.credential.JsonWebTokens;
import dev.warden.core.sanitize.credential.PemPrivateKeys;
import dev.warden.core.sanitize.credential.ProviderTokens;
import dev.warden.core.sanitize.credential.UrlPasswords;
import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.TokenBoundary;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Redacts credentials from the successful results of tools, where a false alarm costs more than in
 * an error message (a file read, edited and written back must come back as it was): only values
 * that are certainly credentials ({@link CredentialKind}), each over exactly its own span, never by a
 * name. Linear in the text; immutable and thread-safe. Why and how: docs/design/sanitizer.md.
 */
public final class CredentialRedactor {

    private static final CredentialRedactor DEFAULTS = custom().build();

    private final Set<CredentialKind> kinds;
    private final ProviderTokens tokens;
    private final boolean jwt;
    private final boolean privateKeys;
    private final boolean urlPasswords;

    private CredentialRedactor(Set<CredentialKind> kinds) {
        this.kinds = Set.copyOf(kinds);
        this.tokens = new ProviderTokens(kinds);
        this.jwt = kinds.contains(CredentialKind.JWT);
        this.privateKeys = kinds.contains(CredentialKind.PRIVATE_KEY);
        this.urlPasswords = kinds.contains(CredentialKind.URL_PASSWORD);
    }

    /** Every kind. */
    public static CredentialRedactor ofDefaults() {
        return DEFAULTS;
    }

    /** A builder that starts with every kind enabled. */
    public static Builder custom() {
        return new Builder();
    }

    /** The kinds this redactor replaces. */
    public Set<CredentialKind> kinds() {
        return kinds;
    }

    /** Replaces every credential in {@code text}; returns {@code text} itself when there is none. */
    public Redaction redact(String text) {
        Objects.requireNonNull(text, "text");
        List<CredentialFinding> found = find(text);
        if (found.isEmpty()) {
            return new Redaction(text, List.of());
        }
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (CredentialFinding finding : found) {
            out.append(text, copied, finding.offset()).append(finding.kind().marker());
            copied = finding.end();
        }
        out.append(text, copied, text.length());
        return new Redaction(out.toString(), found);
    }

    private List<CredentialFinding> find(String text) {
        List<CredentialFinding> found = new ArrayList<>(0);
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            int resume = -1;
            if (c == ':') {
                if (urlPasswords) {
                    resume = UrlPasswords.match(text, i, found);
                }
            } else if (c == '-') {
                if (privateKeys) {
                    resume = PemPrivateKeys.match(text, i, found);
                }
            } else if ((c == 'e' && jwt) || tokens.mayStartWith(c)) {
                if (TokenBoundary.before(text, i)) {
                    resume = c == 'e' ? JsonWebTokens.match(text, i, found) : tokens.match(text, i, found);
                }
            }
            i = resume >= 0 ? resume : i + 1;
        }
        return found;
    }

    /** Chooses the kinds to redact; every kind is enabled to begin with. */
    public static final class Builder {

        private final EnumSet<CredentialKind> kinds = EnumSet.allOf(CredentialKind.class);

        private Builder() {
        }

        /** Stops redacting these kinds. */
        public Builder disable(CredentialKind kind, CredentialKind... more) {
            kinds.remove(Objects.requireNonNull(kind, "kind"));
            for (CredentialKind k : more) {
                kinds.remove(Objects.requireNonNull(k, "kind"));
            }
            return this;
        }

        /** Redacts these kinds again. */
        public Builder enable(CredentialKind kind, CredentialKind... more) {
            kinds.add(Objects.requireNonNull(kind, "kind"));
            for (CredentialKind k : more) {
                kinds.add(Objects.requireNonNull(k, "kind"));
            }
            return this;
        }

        /** Redacts exactly these kinds (none, if empty). */
        public Builder only(Collection<CredentialKind> chosen) {
            kinds.clear();
            for (CredentialKind k : chosen) {
                kinds.add(Objects.requireNonNull(k, "kind"));
            }
            return this;
        }

        public CredentialRedactor build() {
            return new CredentialRedactor(kinds);
        }
    }
}
