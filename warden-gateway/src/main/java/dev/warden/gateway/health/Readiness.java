package dev.warden.gateway.health;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Whether the gateway is ready for new calls: not while it drains ({@link Lifecycle}), nor while
 * one of its {@link HealthCheck}s fails. Checks run side by side, each on a virtual thread and
 * each bounded by its own {@code within}, so the answer comes within the longest bound however a
 * dependency hangs.
 *
 * <p>Upstreams are deliberately not checked: every replica has the same upstreams, so one that is
 * down would take every replica out of the load balancer together, and the calls to the other
 * upstreams with them. Each call to a failing upstream already gets a retryable
 * {@code UPSTREAM_ERROR} and its breaker opens; readiness stays about this replica.
 */
public final class Readiness {

    /** The name {@code GET /readyz} gives the gateway's own state while it drains. */
    public static final String DRAINING = "draining";

    private final Lifecycle lifecycle;
    private final List<HealthCheck> checks;

    public Readiness(Lifecycle lifecycle, List<HealthCheck> checks) {
        this.lifecycle = java.util.Objects.requireNonNull(lifecycle, "lifecycle");
        this.checks = List.copyOf(checks);
        if (this.checks.stream().map(HealthCheck::name).distinct().count() != this.checks.size()) {
            throw new IllegalArgumentException("health checks must have distinct names, got "
                    + this.checks.stream().map(HealthCheck::name).toList());
        }
    }

    /** The names of the checks that fail now, {@code draining} first; empty when ready. */
    public List<String> failing() {
        List<String> failing = new ArrayList<>();
        if (lifecycle.phase() != Lifecycle.Phase.SERVING) {
            failing.add(DRAINING);
        }
        if (checks.isEmpty()) {
            return List.copyOf(failing);
        }
        // Not closed with try-with-resources: closing waits for every task, a hung probe included.
        ExecutorService probes = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<Boolean>> answers = checks.stream().map(c -> probes.submit(() -> c.probe().healthy()))
                    .toList();
            for (int i = 0; i < checks.size(); i++) {
                if (!answered(answers.get(i), checks.get(i))) {
                    failing.add(checks.get(i).name());
                }
            }
        } finally {
            probes.shutdownNow(); // a probe past its bound is interrupted, not waited for
        }
        return List.copyOf(failing);
    }

    /** Whether the probe said healthy within its bound (measured from when the checks started, at most). */
    private static boolean answered(Future<Boolean> answer, HealthCheck check) {
        try {
            return Boolean.TRUE.equals(answer.get(check.within().toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false; // failed, threw or too slow: the detail is not readiness' to show
        }
    }
}
