package dev.warden.e2e.attack;

import java.util.ArrayList;
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
        List<Attack> all = new ArrayList<>(firstHalf());
        all.addAll(secondHalf());
        return List.copyOf(all);
    }

    /** Floods, malformed requests, slow peers (AttackSuiteFirstHalfTest). */
    static List<Attack> firstHalf() {
        List<Attack> half = new ArrayList<>();
        half.addAll(Floods.all());
        half.addAll(Malformed.all());
        half.addAll(SlowPeers.all());
        return List.copyOf(half);
    }

    /**
     * Isolation, wrap, names, the auditor, ownership, shares, credentials, spellings and batches,
     * drop-in (AttackSuiteSecondHalfTest).
     */
    static List<Attack> secondHalf() {
        List<Attack> half = new ArrayList<>();
        half.addAll(Isolation.all());
        half.addAll(WrapAttacks.all());
        half.addAll(Canonical.all());
        half.addAll(AuditAttacks.all());
        half.addAll(Ownership.all());
        half.addAll(Shares.all());
        half.addAll(Credentials.all());
        half.addAll(SpellingsAndBatches.all());
        half.addAll(DropIn.all());
        return List.copyOf(half);
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
