package dev.warden.e2e.attack;

import java.time.Duration;

/**
 * How hard the suite pushes. The short mode is CI's (the whole suite in about two minutes); the
 * full mode is the (10,000 sessions, floods a hundred times larger) and reports timings.
 *
 * @param sessions sessions opened and abandoned by the session flood
 * @param calls tools/call requests of the call flood
 * @param notifications notifications an upstream or a client floods with
 * @param asks server-to-client requests the hostile upstream sends in one loop
 * @param honestWarmUp echo calls the honest client makes first on each attack's new target, untimed:
 *        a new JVM takes about 2,000 to compile its hot paths (its p50 falls from 2.7 to 0.5 ms),
 *        and each target's upstream and gateway warm up too
 * @param honestSamples echo calls the honest client times before an attack
 * @param repeatFor how long a one-shot attack (a malformed request) is repeated (zero: done once)
 * @param hold how long the attacks that last (slowloris, a stream nobody reads) are kept up
 * @param settle the session flood's gateway's idle expiry; the RSS "after" is read once its
 *        sessions have expired (zero: not configured, not waited for)
 * @param perClientSessions initializes against a {@code perClient} upstream
 */
record Scale(String name, int sessions, int calls, int notifications, int asks, int honestWarmUp, int honestSamples, Duration repeatFor, Duration hold,
        Duration settle, int perClientSessions) {

    static final Scale SHORT = new Scale("short", 100, 400, 5_000, 200, 20, 10, Duration.ZERO, Duration.ofSeconds(4),
            Duration.ZERO, 20);
    static final Scale FULL = new Scale("full", 10_000, 20_000, 200_000, 5_000, 3_000, 300, Duration.ofSeconds(10), Duration.ofSeconds(40),
            Duration.ofSeconds(90), 60);

    /** {@code -Dwarden.attack.mode=full} picks the full mode; anything else, the short one. */
    static Scale fromProperties() {
        return "full".equals(System.getProperty("warden.attack.mode")) ? FULL : SHORT;
    }

    boolean full() {
        return this == FULL;
    }
}
