package dev.warden.e2e.attack;

import java.util.Map;

/**
 * THE ONE LIST of attacks that do not hold yet, each with the finding of issue 19 whose fix makes
 * it hold. {@link AttackSuiteHalf} requires these to fail and every other attack to hold, so when a
 * fix is merged its attack fails the build until its line here is deleted: empty this list as the
 * fixes land.
 */
final class ExpectedToFail {

    private ExpectedToFail() {
    }

    static final Map<String, String> ATTACKS = Map.of();
}
