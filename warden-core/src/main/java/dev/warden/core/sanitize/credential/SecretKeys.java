package dev.warden.core.sanitize.credential;

import java.util.Optional;
import java.util.Set;

/**
 * Whether an object member's name says its value is a secret ({@code password}, {@code api_key},
 * {@code Authorization}, {@code client-secret}, {@code githubToken}…). Names are compared with
 * ASCII case, {@code -}, {@code _}, {@code .} and spaces ignored, so {@code API-Key}, {@code apiKey}
 * and {@code api_key} are one name. A name is a secret's when it is one of the known names or ends
 * with {@code password}, {@code passwd}, {@code secret}, {@code token}, {@code apikey},
 * {@code privatekey}, {@code accesskey} or {@code credentials}; pagination cursors
 * ({@code nextPageToken}) and counts ({@code max_tokens}, {@code token_count}) are not.
 */
public final class SecretKeys {

    private static final int MAX_NAME_CHARS = 64;

    private static final Set<String> NAMES = Set.of("password", "passwd", "pwd", "passphrase", "secret", "token",
            "apikey", "xapikey", "accesstoken", "refreshtoken", "idtoken", "authtoken", "bearertoken",
            "authorization", "proxyauthorization", "cookie", "setcookie", "privatekey", "clientsecret",
            "credentials", "credential", "secretkey", "secretaccesskey", "sessiontoken", "sessionid",
            "connectionstring", "dsn", "xauthtoken", "xamzsecuritytoken", "signingkey", "encryptionkey");

    private static final String[] SUFFIXES = {"password", "passwd", "secret", "token", "apikey", "privatekey",
            "accesskey", "credentials"};

    /** Names that end like a secret's but hold none. */
    private static final Set<String> NOT_SECRETS = Set.of("pagetoken", "nextpagetoken", "continuationtoken",
            "nexttoken", "cursortoken", "synctoken", "csrftokenname");

    private SecretKeys() {
    }

    public static boolean isSecret(String name) {
        return normalized(name, MAX_NAME_CHARS).map(SecretKeys::isSecretName).orElse(false);
    }

    /**
     * {@code PWD} or {@code OLDPWD} holding the working directory a shell exports (a server that
     * prints its environment as JSON shows it), not the password {@code pwd} abbreviates
     * ({@link WorkingDirectories}).
     */
    public static boolean isWorkingDirectory(String name, String value) {
        return WorkingDirectories.isOne(value, 0, value.length()) && normalized(name, MAX_NAME_CHARS)
                .filter(n -> n.equals("pwd") || n.equals("oldpwd")).isPresent();
    }

    /**
     * A member's name as the tables hold names: ASCII lower case, without {@code -}, {@code _},
     * {@code .} and spaces. Empty when the name is empty or longer than {@code maxChars} (no name in
     * the caller's table is).
     */
    public static Optional<String> normalized(String name, int maxChars) {
        if (name.isEmpty() || name.length() > maxChars) {
            return Optional.empty();
        }
        StringBuilder normal = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '-' || c == '_' || c == '.' || c == ' ') {
                continue;
            }
            normal.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return Optional.of(normal.toString());
    }

    private static boolean isSecretName(String n) {
        if (NAMES.contains(n)) {
            return true;
        }
        if (NOT_SECRETS.contains(n)) {
            return false;
        }
        for (String suffix : SUFFIXES) {
            if (n.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }
}
