package dev.warden.e2e.attack;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Every attack of the suite, in the order the table lists them. */
final class AttackSuite {

    private AttackSuite() {
    }

    static List<Attack> all() {
        List<Attack> all = new ArrayList<>();
        all.addAll(Floods.all());
        all.addAll(Malformed.all());
        all.addAll(SlowPeers.all());
        all.addAll(Isolation.all());
        all.addAll(WrapAttacks.all());
        all.addAll(Canonical.all());
        all.addAll(AuditAttacks.all());
        all.addAll(Ownership.all());
        all.addAll(Shares.all());
        all.addAll(Credentials.all());
        all.addAll(SpellingsAndBatches.all());
        all.addAll(DropIn.all());
        return List.copyOf(all);
    }

    /** The attacks whose names contain {@code -Dwarden.attack.only} (all when it is not set), for running one while working on it. */
    static List<Attack> selected() {
        String only = System.getProperty("warden.attack.only", "").toLowerCase(Locale.ROOT);
        return all().stream().filter(a -> a.name().toLowerCase(Locale.ROOT).contains(only)).toList();
    }
}
