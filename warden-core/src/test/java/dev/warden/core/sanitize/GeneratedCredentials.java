package dev.warden.core.sanitize;

import dev.warden.core.sanitize.detection.CredentialKind;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Test helper: credentials made at random in each kind's documented format, never typed by hand,
 * so the tests prove the shapes rather than a few memorised strings. {@code [secretFrom, secretTo)}
 * is the redacted span inside the credential (a webhook's last segment, a URL's password).
 */
public final class GeneratedCredentials {

    public static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static final String BASE64URL = BASE62 + "-_";
    static final String HEX = "0123456789abcdef";
    static final String UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static final String LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
    static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static final String DIGITS = "0123456789";
    static final String BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
    static final String AWS_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    /** One generated credential: the whole string, and where its secret part is in it. */
    public record Credential(CredentialKind kind, String value, int secretFrom, int secretTo) {
        Credential(CredentialKind kind, String value) {
            this(kind, value, 0, value.length());
        }

        String secret() {
            return value.substring(secretFrom, secretTo);
        }
    }

    /** A generator per format: the kind, a name for test reports, and how to make one. */
    public record Format(CredentialKind kind, String name, Function<Random, Credential> make) {
        @Override
        public String toString() {
            return name;
        }
    }

    private GeneratedCredentials() {
    }

    public static List<Format> formats() {
        return List.of(
                whole(CredentialKind.GITHUB_TOKEN, "github classic",
                        r -> pick(r, "ghp_", "gho_", "ghu_", "ghs_", "ghr_") + chars(r, BASE62, 36)),
                whole(CredentialKind.GITHUB_TOKEN, "github fine-grained",
                        r -> "github_pat_" + chars(r, BASE62, 22) + "_" + chars(r, BASE62, 59)),
                whole(CredentialKind.GITLAB_TOKEN, "gitlab",
                        r -> pick(r, "glpat-", "gldt-", "glrt-", "glft-", "glsoat-") + chars(r, BASE64URL, 20)),
                whole(CredentialKind.GITLAB_TOKEN, "gitlab routable",
                        r -> "glpat-" + chars(r, BASE64URL, 27 + r.nextInt(40)) + "." + chars(r, LOWER_ALNUM, 9)),
                whole(CredentialKind.GITLAB_TOKEN, "gitlab pipeline trigger", r -> "glptt-" + chars(r, HEX, 40)),
                whole(CredentialKind.SLACK_TOKEN, "slack bot",
                        r -> "xoxb-" + chars(r, DIGITS, 10 + r.nextInt(4)) + "-" + chars(r, DIGITS, 10 + r.nextInt(4))
                                + "-" + chars(r, BASE62, 24)),
                whole(CredentialKind.SLACK_TOKEN, "slack user",
                        r -> "xoxp-" + chars(r, DIGITS, 11) + "-" + chars(r, DIGITS, 12) + "-" + chars(r, DIGITS, 12)
                                + "-" + chars(r, HEX, 32)),
                whole(CredentialKind.SLACK_TOKEN, "slack app-level",
                        r -> "xapp-1-A" + chars(r, UPPER_ALNUM, 10) + "-" + chars(r, DIGITS, 13) + "-"
                                + chars(r, HEX, 64)),
                whole(CredentialKind.SLACK_TOKEN, "slack configuration",
                        r -> "xoxe.xoxp-1-" + chars(r, BASE62, 163)),
                new Format(CredentialKind.SLACK_WEBHOOK, "slack webhook", r -> {
                    String ids = "https://hooks.slack.com/services/T" + chars(r, UPPER_ALNUM, 8) + "/B"
                            + chars(r, UPPER_ALNUM, 10) + "/";
                    String url = ids + chars(r, BASE62, 24);
                    return new Credential(CredentialKind.SLACK_WEBHOOK, url, ids.length(), url.length());
                }),
                whole(CredentialKind.STRIPE_KEY, "stripe",
                        r -> pick(r, "sk_live_", "sk_test_", "rk_live_", "rk_test_") + chars(r, BASE62, 24 + r.nextInt(76))),
                whole(CredentialKind.OPENAI_KEY, "openai user",
                        r -> "sk-" + chars(r, BASE62, 20) + "T3BlbkFJ" + chars(r, BASE62, 20)),
                whole(CredentialKind.OPENAI_KEY, "openai project", r -> {
                    int side = r.nextBoolean() ? 58 : 74;
                    return pick(r, "sk-proj-", "sk-svcacct-", "sk-admin-") + chars(r, BASE64URL, side) + "T3BlbkFJ"
                            + chars(r, BASE64URL, side);
                }),
                whole(CredentialKind.ANTHROPIC_KEY, "anthropic",
                        r -> pick(r, "sk-ant-api03-", "sk-ant-admin01-") + chars(r, BASE64URL, 93) + "AA"),
                whole(CredentialKind.AWS_ACCESS_KEY, "aws",
                        r -> pick(r, "AKIA", "ASIA") + chars(r, AWS_BASE32, 16)),
                whole(CredentialKind.GOOGLE_API_KEY, "google", r -> "AIzaSy" + chars(r, BASE64URL, 33)),
                whole(CredentialKind.NPM_TOKEN, "npm", r -> "npm_" + chars(r, BASE62, 36)),
                whole(CredentialKind.PYPI_TOKEN, "pypi",
                        r -> "pypi-AgEIcHlwaS5vcmc" + chars(r, BASE64URL, 120 + r.nextInt(100))),
                whole(CredentialKind.SENDGRID_KEY, "sendgrid",
                        r -> "SG." + chars(r, BASE64URL, 22) + "." + chars(r, BASE64URL, 43)),
                whole(CredentialKind.HUGGINGFACE_TOKEN, "hugging face", r -> "hf_" + chars(r, LETTERS, 34)),
                whole(CredentialKind.DIGITALOCEAN_TOKEN, "digitalocean",
                        r -> pick(r, "dop_v1_", "doo_v1_", "dor_v1_") + chars(r, HEX, 64)),
                whole(CredentialKind.SHOPIFY_TOKEN, "shopify",
                        r -> pick(r, "shpat_", "shpca_", "shppa_", "shpss_") + chars(r, HEX, 32)),
                whole(CredentialKind.AGE_SECRET_KEY, "age", r -> "AGE-SECRET-KEY-1" + chars(r, BECH32, 58)),
                whole(CredentialKind.JWT, "jwt", GeneratedCredentials::jwt),
                new Format(CredentialKind.URL_PASSWORD, "url password", r -> {
                    String head = pick(r, "postgres://app_user:", "mongodb+srv://svc-reader:", "redis://:",
                            "https://deploy:");
                    String password = chars(r, BASE62 + "!*~._-", 12 + r.nextInt(16));
                    String url = head + password + "@" + pick(r, "db.internal:5432/app", "cluster0.abcde.mongodb.net",
                            "cache.prod.local:6379", "git.corp.local/team/repo.git");
                    return new Credential(CredentialKind.URL_PASSWORD, url, head.length(),
                            head.length() + password.length());
                }));
    }

    private static Format whole(CredentialKind kind, String name, Function<Random, String> make) {
        return new Format(kind, name, r -> new Credential(kind, make.apply(r)));
    }

    public static String chars(Random r, String alphabet, int n) {
        StringBuilder out = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            out.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    /** A JWT signed for real with HMAC-SHA256 over random claims. */
    static String jwt(Random r) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString(pick(r, "{\"alg\":\"HS256\",\"typ\":\"JWT\"}", "{\"typ\":\"JWT\",\"alg\":\"HS256\"}",
                "{\"alg\":\"HS256\",\"kid\":\"" + chars(r, HEX, 16) + "\"}").getBytes(StandardCharsets.UTF_8));
        String claims = "{\"sub\":\"" + chars(r, LOWER_ALNUM, 12) + "\",\"iat\":" + (1_700_000_000L + r.nextInt(1 << 26))
                + ",\"scope\":\"" + pick(r, "read", "read write", "admin") + "\"}";
        String signingInput = header + "." + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        byte[] key = new byte[32];
        r.nextBytes(key);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return signingInput + "." + b64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A freshly generated private key as PEM (PKCS#8), lines of 64, with {@code lineEnd} between lines. */
    static String pemPrivateKey(String algorithm, String lineEnd) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (algorithm.equals("EC")) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else if (algorithm.equals("RSA")) {
                generator.initialize(1024);
            }
            String base64 = Base64.getEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
            StringBuilder pem = new StringBuilder("-----BEGIN PRIVATE KEY-----").append(lineEnd);
            for (int i = 0; i < base64.length(); i += 64) {
                pem.append(base64, i, Math.min(base64.length(), i + 64)).append(lineEnd);
            }
            return pem.append("-----END PRIVATE KEY-----").toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
