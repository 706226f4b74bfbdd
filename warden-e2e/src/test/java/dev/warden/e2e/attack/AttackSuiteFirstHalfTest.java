package dev.warden.e2e.attack;

/** The attack suite's first half: floods, malformed requests, slow peers ({@link AttackSuiteHalf}). */
class AttackSuiteFirstHalfTest extends AttackSuiteHalf {

    AttackSuiteFirstHalfTest() {
        super(AttackSuite.firstHalf(), "first-half");
    }
}
