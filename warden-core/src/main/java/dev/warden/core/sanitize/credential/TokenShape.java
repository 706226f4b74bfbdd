package dev.warden.core.sanitize.credential;

import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.CredentialKind;
import dev.warden.core.sanitize.scan.CharClass;
import dev.warden.core.sanitize.scan.Text;
import dev.warden.core.sanitize.scan.TokenBoundary;
import java.util.List;
import java.util.Objects;

/**
 * One documented token format: a literal prefix, then parts matched left to right, each greedy
 * and bounded, with no backtracking (every part's alphabet excludes the literal after it), so a
 * match attempt reads at most the token plus one character. The span reported is the whole token,
 * or from part {@code secretFrom} on when only the tail is secret (a webhook URL's last segment).
 */
record TokenShape(CredentialKind kind, String prefix, List<Part> parts, int secretFrom) {

    TokenShape {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty()) {
            throw new IllegalArgumentException("a shape needs a prefix");
        }
        parts = List.copyOf(parts);
        if (secretFrom < 0 || secretFrom > parts.size()) {
            throw new IllegalArgumentException("secretFrom out of range: " + secretFrom);
        }
    }

    TokenShape(CredentialKind kind, String prefix, Part... parts) {
        this(kind, prefix, List.of(parts), 0);
    }

    /**
     * Matches at {@code at} (where a token may start) and adds the finding; returns where
     * scanning resumes, or -1.
     */
    int match(String text, int at, List<CredentialFinding> out) {
        if (!text.startsWith(prefix, at)) {
            return -1;
        }
        int i = at + prefix.length();
        int secretStart = at;
        for (int p = 0; p < parts.size(); p++) {
            if (p == secretFrom && secretFrom > 0) {
                secretStart = i;
            }
            i = parts.get(p).match(text, i);
            if (i < 0) {
                return -1;
            }
        }
        if (!TokenBoundary.after(text, i)) {
            return -1;
        }
        out.add(new CredentialFinding(kind, secretStart, i - secretStart));
        return i;
    }

    /** A piece of a token: returns the end of its match at {@code at}, or -1. */
    sealed interface Part permits Literal, Run, SlackSegments {
        int match(String text, int at);
    }

    record Literal(String value) implements Part {
        Literal {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public int match(String text, int at) {
            return text.startsWith(value, at) ? at + value.length() : -1;
        }
    }

    /** What a run's body must look like besides its alphabet and length. */
    enum Check {
        NONE, RANDOM, RANDOM_BOTH_CASES,
        /** OpenAI's keys carry {@code T3BlbkFJ} (base64 of "OpenAI") with at least 20 characters on each side. */
        OPENAI_MARKER
    }

    /** {@code min} to {@code max} characters of {@code alphabet}, taken greedily. */
    record Run(CharClass alphabet, int min, int max, Check check) implements Part {
        Run {
            Objects.requireNonNull(alphabet, "alphabet");
            Objects.requireNonNull(check, "check");
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("bad length range " + min + ".." + max);
            }
        }

        static Run exactly(CharClass alphabet, int length) {
            return new Run(alphabet, length, length, Check.RANDOM);
        }

        static Run between(CharClass alphabet, int min, int max) {
            return new Run(alphabet, min, max, Check.RANDOM);
        }

        @Override
        public int match(String text, int at) {
            int end = alphabet.runEnd(text, at, max);
            if (end - at < min) {
                return -1;
            }
            boolean ok = switch (check) {
                case NONE -> true;
                case RANDOM -> Randomness.plausible(text, at, end, alphabet);
                case RANDOM_BOTH_CASES -> Randomness.plausible(text, at, end, alphabet)
                        && Randomness.bothCases(text, at, end);
                case OPENAI_MARKER -> Randomness.plausible(text, at, end, alphabet) && openAiMarker(text, at, end);
            };
            return ok ? end : -1;
        }

        /** The marker, with at least 20 characters of the body before and after it. */
        private static boolean openAiMarker(String text, int start, int end) {
            return Text.indexOf(text, "T3BlbkFJ", start + 20, end - 20) >= 0;
        }
    }

    /**
     * Slack's bodies: segments of letters and digits joined by single dashes
     * ({@code 17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy}), at most eight. A token has a
     * random last segment of at least 10 characters with a letter in it and, before it, a
     * workspace or user id (all digits, 8 or more); configuration and refresh tokens
     * ({@code xoxe.xoxp-1-…}, {@code xoxe-1-…}) have a last segment of 100 or more instead. Fillers
     * like {@code xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx} or {@code xoxp-1234-1234-1234-4ddbc191…}
     * have neither.
     */
    record SlackSegments(boolean configuration) implements Part {
        private static final int MAX_SEGMENTS = 8;
        private static final int MAX_SEGMENT = 256;

        @Override
        public int match(String text, int at) {
            int i = at;
            boolean idBefore = false;
            int lastStart = -1;
            for (int segments = 0; segments < MAX_SEGMENTS; segments++) {
                int end = CharClass.BASE62.runEnd(text, i, MAX_SEGMENT);
                if (end == i) {
                    return -1;
                }
                boolean more = end + 1 < text.length() && text.charAt(end) == '-'
                        && Text.isAlnum(text.charAt(end + 1));
                if (!more) {
                    lastStart = i;
                    i = end;
                    break;
                }
                if (end - i >= 8 && CharClass.DIGITS.runEnd(text, i, MAX_SEGMENT) == end) {
                    idBefore = true;
                }
                i = end + 1;
            }
            if (lastStart < 0) {
                return -1;
            }
            int length = i - lastStart;
            boolean hasLetter = CharClass.DIGITS.runEnd(text, lastStart, length) < i; // base62, so not a digit is a letter
            // User and app tokens end in hex: judged against 16 symbols, not 62.
            CharClass alphabet = CharClass.HEX_LOWER.runEnd(text, lastStart, length) == i ? CharClass.HEX_LOWER
                    : CharClass.BASE62;
            boolean shaped = configuration ? length >= 100 : idBefore;
            return length >= 10 && hasLetter && shaped && Randomness.plausible(text, lastStart, i, alphabet) ? i : -1;
        }
    }
}
