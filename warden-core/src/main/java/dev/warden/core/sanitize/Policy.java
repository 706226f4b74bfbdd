package dev.warden.core.sanitize;

import java.util.Locale;

/** What the sanitizer does with untrusted text. */
public enum Policy {
    /** Only the code's generic message survives (and the caller adds the ref). */
    STRICT,
    /** Sensitive spans are replaced by typed placeholders; harmless text survives unchanged. The default. */
    REDACT,
    /** The text is passed on as it is; findings are still reported. For trusted upstreams only. */
    PASSTHROUGH;

    public static Policy parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy must be one of strict, redact, passthrough; got \"" + name + "\"");
        }
    }
}
