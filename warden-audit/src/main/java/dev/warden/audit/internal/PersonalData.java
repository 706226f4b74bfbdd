package dev.warden.audit.internal;

import java.util.Locale;
import java.util.Set;

/**
 * What the personal-data detector finds that belongs to nobody:
 * <ul>
 * <li>an address at a domain reserved for documentation and tests (RFC 2606 and RFC 6761:
 * {@code example.com}, {@code .example}, {@code .invalid}, {@code .test}, {@code .localhost}), such
 * as a schema's example or the audit's own {@code …@example.invalid};</li>
 * <li>an ssh remote ({@code git@github.com:owner/repo.git}): a user on a host, then a path;</li>
 * <li>a role mailbox ({@code noreply@}, {@code support@}, {@code info@}, {@code admin@} …) on any
 * domain: it names a function a team answers for, not a person, and is published on purpose
 * ({@code 12345+octocat@users.noreply.github.com} names a person, and is reported);</li>
 * <li>the card numbers payment processors publish for tests (Stripe's, Visa's, Braintree's …);</li>
 * <li>the social security numbers known as examples ({@code 078-05-1120}, printed on a sample card in
 * wallets in 1938, and {@code 219-09-9999} from the SSA's own leaflet), invalidated for that reason.</li>
 * </ul>
 */
final class PersonalData {

    private static final String[] RESERVED_DOMAINS = {"example.com", "example.org", "example.net"};
    private static final String[] RESERVED_TLDS = {".example", ".invalid", ".test", ".localhost"};
    private static final Set<String> ROLES = Set.of("noreply", "no-reply", "no_reply", "donotreply", "do-not-reply",
            "do_not_reply", "notifications", "notification", "mailer-daemon", "postmaster", "hostmaster", "webmaster",
            "abuse", "security", "support", "help", "info", "contact", "hello", "sales", "billing", "privacy", "press",
            "admin", "administrator", "root");
    private static final Set<String> TEST_CARDS = Set.of("4242424242424242", "4111111111111111", "4012888888881881",
            "4000056655665556", "5555555555554444", "5200828282828210", "5105105105105100", "2223003122003222",
            "378282246310005", "371449635398431", "378734493671000", "6011111111111117", "6011000990139424",
            "3056930009020004", "36227206271667", "30569309025904", "38520000023237", "3566002020360505",
            "3530111333300000", "6200000000000005");
    private static final Set<String> EXAMPLE_SSNS = Set.of("078051120", "219099999", "123456789");

    private PersonalData() {
    }

    /**
     * Whether {@code span}, a finding of {@code kind} followed in its text by {@code after} (a few
     * characters, or none), belongs to nobody.
     */
    static boolean placeholder(String kind, String span, String after) {
        return switch (kind) {
            case "email" -> reservedDomain(span) || sshRemote(after) || role(span);
            case "card-number" -> TEST_CARDS.contains(digits(span));
            case "ssn" -> EXAMPLE_SSNS.contains(digits(span));
            default -> false;
        };
    }

    private static boolean reservedDomain(String span) {
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

    /** {@code user@host:path}: a colon right after the host, and no space after it. */
    private static boolean sshRemote(String after) {
        return after.length() >= 2 && after.charAt(0) == ':' && !Character.isWhitespace(after.charAt(1));
    }

    private static boolean role(String span) {
        int at = span.lastIndexOf('@');
        return at > 0 && ROLES.contains(span.substring(0, at).toLowerCase(Locale.ROOT));
    }

    private static String digits(String span) {
        StringBuilder b = new StringBuilder(span.length());
        for (int i = 0; i < span.length(); i++) {
            char c = span.charAt(i);
            if (c >= '0' && c <= '9') {
                b.append(c);
            }
        }
        return b.toString();
    }
}
