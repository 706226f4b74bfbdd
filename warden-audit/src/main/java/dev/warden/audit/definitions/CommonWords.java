package dev.warden.audit.definitions;

import java.util.Set;

/**
 * English words a server or tool is rightly named by, though a slip would turn a well-known name
 * into them ({@code entry} from {@code sentry}, {@code mail} from {@code gmail}, {@code strip} from
 * {@code stripe}): a word names what a server does, so it imitates nobody. Not a dictionary: the
 * words one dropped letter, doubled letter or transposed pair from a name {@link WellKnownTools}
 * lists (found by generating them all), and common words of that length servers are named by.
 */
final class CommonWords {

    private static final Set<String> WORDS = Set.of(
            // one slip from a well-known name
            "entry", "mail", "lack", "sack", "strip", "tripe", "stipe", "titter", "liner", "drive", "papal",
            // words servers are named by, near a well-known name by other edits
            "email", "stack", "motion", "sigma", "locker", "context", "contest", "linen", "linger", "gentry",
            "rocker", "blocker", "shopping", "figure", "discard", "record", "reader", "notation", "station");

    private CommonWords() {
    }

    static boolean contains(String word) {
        return WORDS.contains(word);
    }
}
