package dev.warden.e2e.attack;

/**
 * The attack suite's second half: isolation, wrap, names, the auditor, ownership, shares,
 * credentials, spellings and batches, drop-in ({@link AttackSuiteHalf}).
 */
class AttackSuiteSecondHalfTest extends AttackSuiteHalf {

    AttackSuiteSecondHalfTest() {
        super(AttackSuite.secondHalf(), "second-half");
    }
}
