package dev.warden.core.sanitize.credential;

import static dev.warden.core.sanitize.credential.TokenShape.Check;
import static dev.warden.core.sanitize.credential.TokenShape.Literal;
import static dev.warden.core.sanitize.credential.TokenShape.Part;
import static dev.warden.core.sanitize.credential.TokenShape.Run;
import static dev.warden.core.sanitize.credential.TokenShape.SlackSegments;

import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.CharClass;
import dev.warden.core.sanitize.scan.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one table of provider-prefixed credential formats (sources at each {@link CredentialKind}).
 * A row is one prefix and says how each scan uses it: {@link SecretDetector}, over error messages
 * where a false alarm is cheap, takes the prefix and at least {@code minBody} token characters;
 * {@code CredentialRedactor}, over successful results where a false alarm breaks a file, takes only
 * the documented {@link TokenShape}. Rows are tried in order, so {@code sk-ant-} precedes {@code sk-}.
 * GitHub's classic tokens are 36 base62 after the prefix, 30 random and a CRC32 (GitHub blog,
 * 2021-04-05): both scans use 36.
 */
final class CredentialFormats {

    private CredentialFormats() {
    }

    /** What an error message's body must look like after the prefix, besides its length. */
    enum Body {
        /** Any token characters. */
        ANY,
        /** Exactly 16 upper-case letters and digits (an AWS unique id). */
        UPPER_ALNUM_16,
        /** Exactly 32 hex digits (a Twilio API key SID). */
        HEX_32,
        /** Token characters, and the dot-joined parts after them ({@code SG.…}, {@code ya29.…}). */
        DOTTED
    }

    /** How the error-message scan uses a prefix: the marker's label and the least body. */
    record InErrors(String label, int minBody, Body body) {
        InErrors {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(body, "body");
        }

        /**
         * Where the credential whose body is the token {@code text[bodyStart, end)} ends, or -1
         * when the body does not fit.
         */
        int end(String text, int bodyStart, int end) {
            return switch (body) {
                case ANY -> end;
                case UPPER_ALNUM_16 -> end - bodyStart == 16 && CharClass.UPPER_ALNUM.runEnd(text, bodyStart, 16) == end ? end : -1;
                case HEX_32 -> end - bodyStart == 32 && hex(text, bodyStart, end) ? end : -1;
                case DOTTED -> extendDots(text, end);
            };
        }

        private static boolean hex(String text, int s, int e) {
            for (int i = s; i < e; i++) {
                char c = text.charAt(i);
                if (!Text.isDigit(c) && !(c >= 'a' && c <= 'f')) {
                    return false;
                }
            }
            return true;
        }

        private static int extendDots(String text, int end) {
            int i = end;
            while (i + 1 < text.length() && text.charAt(i) == '.' && LooseSecretSpans.isTokenChar(text.charAt(i + 1))) {
                i++;
                while (i < text.length() && LooseSecretSpans.isTokenChar(text.charAt(i))) {
                    i++;
                }
            }
            return i;
        }
    }

    /** One row: a prefix, its use in error messages (if any) and its documented shape (if any). */
    record CredentialFormat(String prefix, Optional<InErrors> inErrors, Optional<TokenShape> shape) {
        CredentialFormat {
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(inErrors, "inErrors");
            Objects.requireNonNull(shape, "shape");
            if (shape.isPresent() && !shape.get().prefix().equals(prefix)) {
                throw new IllegalArgumentException("shape of another prefix: " + shape.get().prefix());
            }
        }
    }

    static final List<CredentialFormat> ROWS = rows();

    /** The rows with a documented shape, in table order. */
    static List<TokenShape> shapes() {
        return ROWS.stream().flatMap(row -> row.shape().stream()).toList();
    }

    private static List<CredentialFormat> rows() {
        Table t = new Table();
        for (String p : List.of("AKIA", "ASIA", "ABIA")) {
            t.both(p, "aws-access-key", 16, Body.UPPER_ALNUM_16, CredentialKind.AWS_ACCESS_KEY,
                    Run.exactly(CharClass.UPPER_ALNUM, 16));
        }
        // Ids of users, groups, roles, policies and profiles: no credential, yet the server's own.
        for (String p : List.of("AGPA", "AIDA", "AROA", "ANPA", "AIPA")) {
            t.errorsOnly(p, "aws-access-key", 16, Body.UPPER_ALNUM_16);
        }
        t.resultsOnly(CredentialKind.AWS_ACCESS_KEY, "ACCA", Run.exactly(CharClass.UPPER_ALNUM, 16));

        for (String p : List.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) {
            t.both(p, "github-token", 36, Body.ANY, CredentialKind.GITHUB_TOKEN, Run.exactly(CharClass.BASE62, 36));
        }
        t.both("github_pat_", "github-token", 82, Body.ANY, CredentialKind.GITHUB_TOKEN,
                Run.exactly(CharClass.BASE62, 22), new Literal("_"), Run.exactly(CharClass.BASE62, 59));

        for (String p : List.of("glpat-", "gldt-", "glrt-", "glft-", "glsoat-", "glptt-")) {
            boolean inErrors = !p.equals("glft-");
            boolean twenty = !p.equals("glptt-");
            if (twenty) {
                t.row(p, inErrors ? new InErrors("gitlab-token", 20, Body.ANY) : null,
                        CredentialKind.GITLAB_TOKEN, Run.exactly(CharClass.BASE64URL, 20));
                // Routable tokens (GitLab 17.x): payload, '.', two-character version and 7-character CRC in base 36.
                t.resultsOnly(CredentialKind.GITLAB_TOKEN, p, Run.between(CharClass.BASE64URL, 27, 300),
                        new Literal("."), new Run(CharClass.LOWER_ALNUM, 9, 9, Check.NONE));
            } else {
                t.both(p, "gitlab-token", 20, Body.ANY, CredentialKind.GITLAB_TOKEN, Run.exactly(CharClass.HEX_LOWER, 40));
            }
        }
        t.resultsOnly(CredentialKind.GITLAB_TOKEN, "gloas-", Run.exactly(CharClass.BASE64URL, 64));

        for (String p : List.of("xoxe.xoxb-", "xoxe.xoxp-", "xoxe-")) {
            t.resultsOnly(CredentialKind.SLACK_TOKEN, p, new SlackSegments(true));
        }
        for (String p : List.of("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xapp-")) {
            t.row(p, p.equals("xoxo-") ? null : new InErrors("slack-token", 10, Body.ANY),
                    CredentialKind.SLACK_TOKEN, new SlackSegments(false));
        }
        t.shape(new TokenShape(CredentialKind.SLACK_WEBHOOK, "hooks.slack.com/services/", List.of(
                new Run(CharClass.UPPER_ALNUM, 8, 12, Check.NONE), new Literal("/"),
                new Run(CharClass.UPPER_ALNUM, 8, 12, Check.NONE), new Literal("/"),
                Run.exactly(CharClass.BASE62, 24)), 4), null);

        for (String p : List.of("sk_live_", "sk_test_", "rk_live_", "rk_test_")) {
            t.both(p, "stripe-key", 10, Body.ANY, CredentialKind.STRIPE_KEY, Run.between(CharClass.BASE62, 24, 247));
        }
        t.errorsOnly("whsec_", "stripe-key", 16, Body.ANY);

        // Anthropic before OpenAI: both begin "sk-", and the first row that matches wins.
        t.both("sk-ant-", "llm-api-key", 20, Body.ANY, CredentialKind.ANTHROPIC_KEY,
                new Run(CharClass.LOWER, 2, 10, Check.NONE), new Run(CharClass.DIGITS, 2, 2, Check.NONE),
                new Literal("-"), Run.between(CharClass.BASE64URL, 40, 300));
        for (String p : List.of("sk-proj-", "sk-svcacct-", "sk-admin-")) {
            t.row(p, p.equals("sk-proj-") ? new InErrors("llm-api-key", 20, Body.ANY) : null,
                    CredentialKind.OPENAI_KEY, new Run(CharClass.BASE64URL, 100, 400, Check.OPENAI_MARKER));
        }
        t.both("sk-", "llm-api-key", 20, Body.ANY, CredentialKind.OPENAI_KEY,
                new Run(CharClass.BASE62, 48, 48, Check.OPENAI_MARKER));

        t.both("AIza", "gcp-api-key", 30, Body.ANY, CredentialKind.GOOGLE_API_KEY, Run.exactly(CharClass.BASE64URL, 35));
        t.errorsOnly("ya29.", "gcp-oauth-token", 20, Body.DOTTED);
        t.both("npm_", "npm-token", 30, Body.ANY, CredentialKind.NPM_TOKEN, Run.exactly(CharClass.BASE62, 36));
        t.errorsOnly("pypi-", "pypi-token", 50, Body.ANY);
        for (String p : List.of("pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw")) {
            t.resultsOnly(CredentialKind.PYPI_TOKEN, p, Run.between(CharClass.BASE64URL, 50, 4000));
        }
        t.both("hf_", "huggingface-token", 30, Body.ANY, CredentialKind.HUGGINGFACE_TOKEN,
                new Run(CharClass.LETTERS, 34, 34, Check.RANDOM_BOTH_CASES));
        for (String p : List.of("dop_v1_", "doo_v1_", "dor_v1_")) {
            t.row(p, p.equals("dop_v1_") ? new InErrors("digitalocean-token", 40, Body.ANY) : null,
                    CredentialKind.DIGITALOCEAN_TOKEN, Run.exactly(CharClass.HEX_LOWER, 64));
        }
        for (String p : List.of("shpat_", "shpca_", "shppa_", "shpss_")) {
            t.row(p, p.equals("shpat_") ? new InErrors("shopify-token", 30, Body.ANY) : null,
                    CredentialKind.SHOPIFY_TOKEN, Run.exactly(CharClass.HEX, 32));
        }
        t.both("SG.", "sendgrid-key", 20, Body.DOTTED, CredentialKind.SENDGRID_KEY,
                Run.exactly(CharClass.BASE64URL, 22), new Literal("."), Run.exactly(CharClass.BASE64URL, 43));
        t.errorsOnly("SK", "twilio-key", 32, Body.HEX_32);
        t.resultsOnly(CredentialKind.AGE_SECRET_KEY, "AGE-SECRET-KEY-1", Run.exactly(CharClass.BECH32_UPPER, 58));
        return List.copyOf(t.rows);
    }

    /** Collects rows in order; {@code null} for "not used by that scan" stays inside this file. */
    private static final class Table {
        private final List<CredentialFormat> rows = new ArrayList<>();

        void both(String prefix, String label, int minBody, Body body, CredentialKind kind, Part... parts) {
            row(prefix, new InErrors(label, minBody, body), kind, parts);
        }

        void errorsOnly(String prefix, String label, int minBody, Body body) {
            rows.add(new CredentialFormat(prefix, Optional.of(new InErrors(label, minBody, body)), Optional.empty()));
        }

        void resultsOnly(CredentialKind kind, String prefix, Part... parts) {
            row(prefix, null, kind, parts);
        }

        void row(String prefix, InErrors inErrors, CredentialKind kind, Part... parts) {
            shape(new TokenShape(kind, prefix, parts), inErrors);
        }

        void shape(TokenShape shape, InErrors inErrors) {
            rows.add(new CredentialFormat(shape.prefix(), Optional.ofNullable(inErrors), Optional.of(shape)));
        }
    }
}
