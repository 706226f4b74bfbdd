package dev.warden.core.sanitize;

import static dev.warden.core.sanitize.TokenShape.Check;
import static dev.warden.core.sanitize.TokenShape.Literal;
import static dev.warden.core.sanitize.TokenShape.Run;
import static dev.warden.core.sanitize.TokenShape.SlackSegments;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The provider-prefixed token formats, one {@link TokenShape} per prefix (sources at each
 * {@link CredentialKind}), indexed by first character so that the scan tests only the shapes that
 * can start where it stands.
 */
final class ProviderTokens {

    private static final List<TokenShape> SHAPES = shapes();

    private final TokenShape[][] byFirstChar = new TokenShape[128][];

    ProviderTokens(Set<CredentialKind> enabled) {
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
    boolean mayStartWith(char c) {
        return c < 128 && byFirstChar[c] != null;
    }

    /** Tries the shapes starting with the character at {@code at}; returns where scanning resumes, or -1. */
    int match(String text, int at, List<CredentialFinding> out) {
        for (TokenShape shape : byFirstChar[text.charAt(at)]) {
            int end = shape.match(text, at, out);
            if (end >= 0) {
                return end;
            }
        }
        return -1;
    }

    private static List<TokenShape> shapes() {
        List<TokenShape> all = new ArrayList<>();
        for (String prefix : List.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) {
            all.add(new TokenShape(CredentialKind.GITHUB_TOKEN, prefix, Run.exactly(CharClass.BASE62, 36)));
        }
        all.add(new TokenShape(CredentialKind.GITHUB_TOKEN, "github_pat_", Run.exactly(CharClass.BASE62, 22),
                new Literal("_"), Run.exactly(CharClass.BASE62, 59)));

        for (String prefix : List.of("glpat-", "gldt-", "glrt-", "glft-", "glsoat-")) {
            all.add(new TokenShape(CredentialKind.GITLAB_TOKEN, prefix, Run.exactly(CharClass.BASE64URL, 20)));
            // Routable tokens (GitLab 17.x): payload, '.', two-character version and 7-character CRC in base 36.
            all.add(new TokenShape(CredentialKind.GITLAB_TOKEN, prefix, Run.between(CharClass.BASE64URL, 27, 300),
                    new Literal("."), new Run(CharClass.LOWER_ALNUM, 9, 9, Check.NONE)));
        }
        all.add(new TokenShape(CredentialKind.GITLAB_TOKEN, "gloas-", Run.exactly(CharClass.BASE64URL, 64)));
        all.add(new TokenShape(CredentialKind.GITLAB_TOKEN, "glptt-", Run.exactly(CharClass.HEX_LOWER, 40)));

        for (String prefix : List.of("xoxe.xoxb-", "xoxe.xoxp-", "xoxe-")) {
            all.add(new TokenShape(CredentialKind.SLACK_TOKEN, prefix, new SlackSegments(true)));
        }
        for (String prefix : List.of("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xapp-")) {
            all.add(new TokenShape(CredentialKind.SLACK_TOKEN, prefix, new SlackSegments(false)));
        }
        all.add(new TokenShape(CredentialKind.SLACK_WEBHOOK, "hooks.slack.com/services/", List.of(
                new Run(CharClass.UPPER_ALNUM, 8, 12, Check.NONE), new Literal("/"),
                new Run(CharClass.UPPER_ALNUM, 8, 12, Check.NONE), new Literal("/"),
                Run.exactly(CharClass.BASE62, 24)), 4));

        for (String prefix : List.of("sk_live_", "sk_test_", "rk_live_", "rk_test_")) {
            all.add(new TokenShape(CredentialKind.STRIPE_KEY, prefix, Run.between(CharClass.BASE62, 24, 247)));
        }

        // Anthropic before OpenAI: both begin "sk-", and the first shape that matches wins.
        all.add(new TokenShape(CredentialKind.ANTHROPIC_KEY, "sk-ant-", new Run(CharClass.LOWER, 2, 10, Check.NONE),
                new Run(CharClass.DIGITS, 2, 2, Check.NONE), new Literal("-"), Run.between(CharClass.BASE64URL, 40, 300)));
        for (String prefix : List.of("sk-proj-", "sk-svcacct-", "sk-admin-")) {
            all.add(new TokenShape(CredentialKind.OPENAI_KEY, prefix,
                    new Run(CharClass.BASE64URL, 100, 400, Check.OPENAI_MARKER)));
        }
        all.add(new TokenShape(CredentialKind.OPENAI_KEY, "sk-", new Run(CharClass.BASE62, 48, 48, Check.OPENAI_MARKER)));

        for (String prefix : List.of("AKIA", "ASIA", "ABIA", "ACCA")) {
            all.add(new TokenShape(CredentialKind.AWS_ACCESS_KEY, prefix, Run.exactly(CharClass.UPPER_ALNUM, 16)));
        }
        all.add(new TokenShape(CredentialKind.GOOGLE_API_KEY, "AIza", Run.exactly(CharClass.BASE64URL, 35)));
        all.add(new TokenShape(CredentialKind.NPM_TOKEN, "npm_", Run.exactly(CharClass.BASE62, 36)));
        for (String prefix : List.of("pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw")) {
            all.add(new TokenShape(CredentialKind.PYPI_TOKEN, prefix, Run.between(CharClass.BASE64URL, 50, 4000)));
        }
        all.add(new TokenShape(CredentialKind.SENDGRID_KEY, "SG.", Run.exactly(CharClass.BASE64URL, 22),
                new Literal("."), Run.exactly(CharClass.BASE64URL, 43)));
        all.add(new TokenShape(CredentialKind.HUGGINGFACE_TOKEN, "hf_",
                new Run(CharClass.LETTERS, 34, 34, Check.RANDOM_BOTH_CASES)));
        for (String prefix : List.of("dop_v1_", "doo_v1_", "dor_v1_")) {
            all.add(new TokenShape(CredentialKind.DIGITALOCEAN_TOKEN, prefix, Run.exactly(CharClass.HEX_LOWER, 64)));
        }
        for (String prefix : List.of("shpat_", "shpca_", "shppa_", "shpss_")) {
            all.add(new TokenShape(CredentialKind.SHOPIFY_TOKEN, prefix, Run.exactly(CharClass.HEX, 32)));
        }
        all.add(new TokenShape(CredentialKind.AGE_SECRET_KEY, "AGE-SECRET-KEY-1", Run.exactly(CharClass.BECH32_UPPER, 58)));
        return List.copyOf(all);
    }
}
