package dev.warden.audit.internal;

import java.util.Locale;

/**
 * What the personal-data detector finds that belongs to nobody: an address at a domain reserved
 * for documentation and tests (RFC 2606 and RFC 6761: {@code example.com}, {@code .example},
 * {@code .invalid}, {@code .test}, {@code .localhost}), such as a schema's example or the audit's
 * own {@code …@example.invalid}.
 */
final class PersonalData {

    private static final String[] RESERVED_DOMAINS = {"example.com", "example.org", "example.net"};
    private static final String[] RESERVED_TLDS = {".example", ".invalid", ".test", ".localhost"};

    private PersonalData() {
    }

    static boolean placeholder(String kind, String span) {
        if (!kind.equals("email")) {
            return false;
        }
        String domain = span.substring(span.lastIndexOf('@') + 1).toLowerCase(Locale.ROOT);
        for (String reserved : RESERVED_DOMAINS) {
            if (domain.equals(reserved) || domain.endsWith("." + reserved)) {
                return true;
            }
        }
        for (String tld : RESERVED_TLDS) {
            if (domain.endsWith(tld)) {
                return true;
            }
        }
        return false;
    }
}
