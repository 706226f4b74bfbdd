package dev.warden.e2e.attack;

import java.util.List;

/** The attack suite's first half: floods, malformed requests, slow peers ({@link AttackSuiteHalf}). */
class AttackSuiteFirstHalfTest extends AttackSuiteHalf {

    @Override
    List<Attack> attacks() {
        return AttackSuite.firstHalf();
    }

    @Override
    String name() {
        return "first-half";
    }
}
