package dev.warden.testkit;

import java.security.SecureRandom;

/**
 * GitHub personal access tokens in their documented shape ({@code ghp_} and 36 random letters and
 * digits), made at random for each run: a shape the sanitizer certainly redacts, never a real
 * token and never one typed into the sources.
 */
public final class GithubTokens {

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private GithubTokens() {
    }

    /** A new token. */
    public static String fresh() {
        StringBuilder b = new StringBuilder("ghp_");
        for (int i = 0; i < 36; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }
}
