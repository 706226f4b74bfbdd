package dev.warden.e2e.attack;

import java.util.List;
import java.util.Locale;

/**
 * Every attack of the suite, in the order the table lists them, in two halves of about equal time:
 * CI runs each half in a test class of its own, so warden-e2e's forks run them side by side.
 */
final class AttackSuite {

    private AttackSuite() {
    }

    static List<Attack> all() {
        return concat(List.of(firstHalf(), secondHalf()));
    }

    /** Floods, malformed requests, slow peers (AttackSuiteFirstHalfTest). */
    static List<Attack> firstHalf() {
        return concat(List.of(Floods.all(), Malformed.all(), SlowPeers.all()));
    }

    /**
     * Isolation, wrap, names, the auditor, ownership, shares, credentials, spellings and batches,
     * drop-in (AttackSuiteSecondHalfTest).
     */
    static List<Attack> secondHalf() {
        return concat(List.of(Isolation.all(), WrapAttacks.all(), Canonical.all(), AuditAttacks.all(),
                Ownership.all(), Shares.all(), Credentials.all(), SpellingsAndBatches.all(), DropIn.all()));
    }

    private static List<Attack> concat(List<List<Attack>> lists) {
        return lists.stream().flatMap(List::stream).toList();
    }

    /** The attacks whose names contain {@code -Dwarden.attack.only} (all when it is not set), for running one while working on it. */
    static List<Attack> selected() {
        return selected(all());
    }

    /** Those of {@code attacks} whose names contain {@code -Dwarden.attack.only}. */
    static List<Attack> selected(List<Attack> attacks) {
        String only = System.getProperty("warden.attack.only", "").toLowerCase(Locale.ROOT);
        return attacks.stream().filter(a -> a.name().toLowerCase(Locale.ROOT).contains(only)).toList();
    }
}
