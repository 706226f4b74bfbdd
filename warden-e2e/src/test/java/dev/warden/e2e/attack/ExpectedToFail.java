package dev.warden.e2e.attack;

import java.util.Map;

/**
 * THE ONE LIST of attacks that do not hold yet, each with the finding of issue 19 whose fix makes
 * it hold. {@link AttackSuiteTest} requires these to fail and every other attack to hold, so when a
 * fix is merged its attack fails the build until its line here is deleted: empty this list as the
 * fixes land.
 */
final class ExpectedToFail {

    private ExpectedToFail() {
    }

    static final Map<String, String> ATTACKS = Map.ofEntries(
            Map.entry("perClient initializes", "finding 6: a process per initialize, no cap"),
            Map.entry("wrong and duplicate ids", "finding 8: the first of two POSTs with one id never completes"),
            Map.entry("batches", "finding 7: a batch on a session is never answered"),
            Map.entry("upstream never reads stdin", "finding 4: calls block writing to the upstream, unanswered"),
            Map.entry("wrap: server never reads stdin", "finding 4: calls block writing to the server, unanswered"),
            Map.entry("parked calls never resumed", "finding 2: parked calls keep their permits"),
            Map.entry("environment leak", "finding 1: stdio upstreams inherit the gateway's environment"),
            Map.entry("cross-client roots", "finding 10: the upstream's roots question reaches another client"));
}
