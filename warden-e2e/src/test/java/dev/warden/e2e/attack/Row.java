package dev.warden.e2e.attack;

import java.util.ArrayList;
import java.util.List;

/**
 * One attack's measurements. {@link #failures} holds what CI asserts in every mode (the target
 * stays up, every request is answered exactly once, the honest client is served); in the full mode
 * also the RSS bound, the RSS back near its baseline after an attack that settles (the session
 * flood's idle expiry), and the honest p50 within 2× of the lower of before and after, which are wall-clock figures CI
 * only reports. {@code cpuPercentDuring} is the target JVM's CPU time while the attack ran, in
 * percent of one core (200 is both cores of this machine): how hard the attack made it work.
 */
record Row(String attack, boolean strict, long rssBefore, long rssPeak, long rssAfter, long rssBound,
        double cpuPercentDuring, double p50Before, double p50During, double p50After, long honestCalls, long honestUnserved, long expected, long received,
        boolean upAfter, boolean settled, List<String> problems, String notes) {

    /**
     * What "returns near its baseline" means: within a fifth of the RSS before the attack. What stays
     * is the JIT's code and classes loaded for the attack's paths, not what the attack made the
     * gateway hold.
     */
    static long nearBaseline(long rssBefore) {
        return rssBefore + rssBefore / 5;
    }

    List<String> failures() {
        List<String> failures = new ArrayList<>();
        if (!upAfter) {
            failures.add("did not stay up");
        }
        if (received != expected) {
            failures.add("answered " + received + " of " + expected + " requests exactly once");
        }
        failures.addAll(problems);
        if (honestUnserved > 0) {
            failures.add("honest client not served " + honestUnserved + " of " + honestCalls + " times");
        }
        if (strict && rssPeak > rssBound) {
            failures.add("RSS peak " + rssPeak + " MiB over the bound " + rssBound + " MiB");
        }
        if (strict && settled && rssAfter > nearBaseline(rssBefore)) {
            failures.add("RSS " + rssAfter + " MiB after the expiry, not near its baseline " + rssBefore + " MiB");
        }
        if (strict && p50During > 2 * reference()) {
            failures.add("honest p50 %.2f ms during, over 2x %.2f ms (the lower of before and after)"
                    .formatted(p50During, reference()));
        }
        return failures;
    }

    /** What the honest p50 during the attack is judged against: the lower of before and after it. */
    double reference() {
        return Double.isNaN(p50After) ? p50Before : Math.min(p50Before, p50After);
    }

    boolean held() {
        return failures().isEmpty();
    }
}
