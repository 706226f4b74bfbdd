package dev.warden.core.sanitize.detection;

/**
 * The credentials {@code CredentialRedactor} finds: each a format its issuer documents (prefix,
 * alphabet, length), so a match is a credential whatever the text around it says; the source is
 * named at each constant. Left out on purpose: formats with no prefix of their own (an AWS secret
 * access key, Twilio secrets, a Discord bot token, a Stripe webhook secret), which only a key's name tells from any random
 * string, and identifiers that grant nothing alone (Twilio SIDs, Stripe's {@code pk_…}).
 */
public enum CredentialKind {

    /**
     * {@code ghp_ gho_ ghu_ ghs_ ghr_} + 36 base62, and {@code github_pat_} + 22 base62 + {@code _}
     * + 59 base62. GitHub blog, "Behind GitHub's new authentication token formats" (2021-04-05);
     * "Introducing fine-grained personal access tokens for GitHub" (2022-10-18).
     */
    GITHUB_TOKEN("github-token"),

    /**
     * {@code glpat- gldt- glrt- glft- glsoat-} + 20 of {@code [0-9A-Za-z_-]}, or the routable form
     * (27–300 of them, {@code .}, 9 of {@code [0-9a-z]}); {@code gloas-} + 64; {@code glptt-} + 40
     * hex. GitLab docs, "GitLab token overview", section "Token prefixes".
     */
    GITLAB_TOKEN("gitlab-token"),

    /**
     * {@code xoxb- xoxp- xoxa- xoxr- xoxs- xoxo- xoxe- xapp- xoxe.xoxb- xoxe.xoxp-}: dash-separated
     * workspace/user ids, then a random part. Slack API docs, "Token types"
     * (api.slack.com/authentication/token-types) and "Configuration tokens".
     */
    SLACK_TOKEN("slack-token"),

    /**
     * The secret last segment of {@code hooks.slack.com/services/T…/B…/} + 24 base62. Slack API
     * docs, "Sending messages using incoming webhooks".
     */
    SLACK_WEBHOOK("slack-webhook"),

    /**
     * {@code sk_live_ sk_test_ rk_live_ rk_test_} + 24–247 base62 (secret and restricted keys;
     * test-mode keys too: they read and write the account's test data). Stripe docs, "API keys"
     * (keys are at most 255 characters); the documented test key {@code sk_test_4eC39HqLyjWDarjtT1zdp7dc}.
     */
    STRIPE_KEY("stripe-key"),

    /**
     * {@code sk-} + 20 base62 + {@code T3BlbkFJ} + 20 base62 (user keys), {@code sk-proj-},
     * {@code sk-svcacct-}, {@code sk-admin-} + 100–400 of {@code [0-9A-Za-z_-]} around
     * {@code T3BlbkFJ} (base64 of "OpenAI"). The shape GitHub secret scanning and gitleaks
     * ({@code openai-api-key}) match for OpenAI's platform.openai.com/api-keys.
     */
    OPENAI_KEY("openai-key"),

    /**
     * {@code sk-ant-} + a tag such as {@code api03}, {@code admin01}, {@code oat01} + {@code -} +
     * 40–300 of {@code [0-9A-Za-z_-]}. Anthropic docs, "API keys" (console.anthropic.com); gitleaks
     * rules {@code anthropic-api-key}, {@code anthropic-admin-api-key}.
     */
    ANTHROPIC_KEY("anthropic-key"),

    /**
     * {@code AKIA ASIA ABIA ACCA} + 16 upper-case letters and digits: the access key id, which
     * names the account and is half of the credential. AWS IAM User Guide, "IAM identifiers",
     * section "Understanding unique ID prefixes". AWS's own example key (ending {@code EXAMPLE})
     * is left alone.
     */
    AWS_ACCESS_KEY("aws-access-key"),

    /** {@code AIza} + 35 of {@code [0-9A-Za-z_-]}. Google Cloud docs, "Manage API keys". */
    GOOGLE_API_KEY("google-api-key"),

    /**
     * {@code npm_} + 36 base62. GitHub blog, "Announcing npm's new access token format"
     * (2021-09-23).
     */
    NPM_TOKEN("npm-token"),

    /**
     * {@code pypi-AgEIcHlwaS5vcmc} (a macaroon whose location is "pypi.org") or
     * {@code pypi-AgENdGVzdC5weXBpLm9yZw} ("test.pypi.org") + at least 50 of
     * {@code [0-9A-Za-z_-]}. PyPI help, "API tokens"; warehouse's token scanning.
     */
    PYPI_TOKEN("pypi-token"),

    /**
     * {@code SG.} + 22 + {@code .} + 43 of {@code [0-9A-Za-z_-]}. Twilio SendGrid docs, "API keys";
     * GitHub secret scanning partner pattern.
     */
    SENDGRID_KEY("sendgrid-key"),

    /** {@code hf_} + 34 letters of both cases. Hugging Face docs, "User access tokens". */
    HUGGINGFACE_TOKEN("huggingface-token"),

    /**
     * {@code dop_v1_ doo_v1_ dor_v1_} + 64 lower-case hex (personal, OAuth access and refresh
     * tokens). DigitalOcean docs, "How to create a personal access token"; the prefixes date from
     * April 2022.
     */
    DIGITALOCEAN_TOKEN("digitalocean-token"),

    /**
     * {@code shpat_ shpca_ shppa_ shpss_} + 32 hex (public, custom and private app tokens, shared
     * secrets). Shopify API changelog, April 2020 (access tokens get a prefix and a longer body).
     */
    SHOPIFY_TOKEN("shopify-token"),

    /**
     * {@code AGE-SECRET-KEY-1} + 58 upper-case Bech32 characters. C2SP age specification,
     * "X25519 recipient type" (the identity encoding).
     */
    AGE_SECRET_KEY("age-secret-key"),

    /**
     * A signed or encrypted JSON Web Token: three (JWS) or five (JWE) base64url segments whose
     * first decodes to a JSON object with {@code alg} (not {@code none}). RFC 7519, RFC 7515
     * section 7.1, RFC 7516 section 7.1.
     */
    JWT("jwt"),

    /**
     * A PEM block {@code -----BEGIN … PRIVATE KEY-----} with its base64 body and
     * {@code -----END … PRIVATE KEY-----} (PKCS#1, SEC 1, PKCS#8, encrypted PKCS#8, OpenSSH, and
     * {@code PGP PRIVATE KEY BLOCK}). RFC 7468, RFC 4880 section 6.2.
     */
    PRIVATE_KEY("private-key"),

    /**
     * The password of {@code scheme://user:password@host}, not a placeholder. RFC 3986 section
     * 3.2.1 (userinfo).
     */
    URL_PASSWORD("url-password");

    private final String label;
    private final String marker;

    CredentialKind(String label) {
        this.label = label;
        this.marker = "[redacted:" + label + "]";
    }

    /** The lower-case name used in markers, JSON and metrics. */
    public String label() {
        return label;
    }

    /** What replaces a credential of this kind: {@code [redacted:github-token]}. */
    public String marker() {
        return marker;
    }
}
