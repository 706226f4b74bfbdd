package dev.warden.e2e.attack;

import java.util.List;

/**
 * The attack suite's second half: isolation, wrap, names, the auditor, ownership, shares,
 * credentials, spellings and batches, drop-in ({@link AttackSuiteHalf}).
 */
class AttackSuiteSecondHalfTest extends AttackSuiteHalf {

    @Override
    List<Attack> attacks() {
        return AttackSuite.secondHalf();
    }

    @Override
    String name() {
        return "second-half";
    }
}
