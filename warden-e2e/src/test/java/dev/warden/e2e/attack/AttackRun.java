package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Runs one attack against a fresh target and measures it. */
final class AttackRun {

    private AttackRun() {
    }

    /** {@code honestJvm}: the honest client's JVM, kept from one attack to the next; this attack opens its own session. */
    static Row run(Attack attack, Scale scale, HonestProcess.Kept honestJvm) throws Exception {
        try (Target target = attack.starter().start(scale);
             Honesty honest = attack.honestTool().isPresent()
                     ? new Honesty(Optional.of(honestJvm.on(target.url.orElseThrow(), attack.honestTool().get())))
                     : new Honesty(Optional.empty())) {
            honest.client.ifPresent(h -> h.sample(scale.honestWarmUp())); // the upstream started, the JITs warm
            Honest.Sample before = honest.client.map(h -> h.sample(scale.honestSamples())).orElseGet(Honest.Sample::new);
            long rssBefore = target.rssMiB();
            RssPeak peak = new RssPeak(target);
            Optional<HonestProcess.Loop> during = honest.client.map(HonestProcess::loop);
            Tally tally = new Tally();
            long cpuBefore = target.cpuMillis();
            long started = System.nanoTime();
            try (AttackerPriority lowered = AttackerPriority.lowerAllButThisThread()) {
                AttackerPriority.runLowered(attack.body(), target, scale, tally);
            } catch (Exception | AssertionError e) {
                tally.problem("the attack itself failed: " + e);
            }
            double cpuDuring = 100.0 * (target.cpuMillis() - cpuBefore) / ((System.nanoTime() - started) / 1e6);
            Honest.Sample duringSample = during.isPresent() ? during.get().stop() : new Honest.Sample();
            // Again once the attack is over: the honest client and the gateway keep warming up, so
            // "before" alone can be the slower reference; the verdict takes the lower of the two.
            Honest.Sample after = honest.client.map(h -> h.sample(scale.honestSamples())).orElseGet(Honest.Sample::new);
            boolean settled = attack.settles() && !scale.settle().isZero();
            if (settled) {
                settle(target, scale, tally, honest.client, rssBefore);
            }
            long rssAfter = target.rssMiB();
            long rssPeak = peak.stop();
            boolean up = target.alive() || target.endsByItself; // an audit's end is judged by its body
            boolean servedAfter = honest.client.map(h -> h.echo().isPresent()).orElse(true);
            honest.client.flatMap(HonestProcess::firstFailure)
                    .ifPresent(f -> tally.note("the honest client's first unserved call got: " + f));
            if (!tally.problems().isEmpty()) {
                System.out.println("attack " + attack.name() + " failed; the target's stderr, last 60 lines:");
                target.stderrTail(60).forEach(line -> System.out.println("  " + line));
            }
            return new Row(attack.name(), scale.full(), rssBefore, rssPeak, rssAfter, attack.rssBoundMiB(),
                    cpuDuring, before.p50Millis(), duringSample.p50Millis(), after.p50Millis(), duringSample.calls(),
                    duringSample.unserved.get() + before.unserved.get() + after.unserved.get() + (servedAfter ? 0 : 1), tally.expected.get(), tally.received.get(), up,
                    settled, tally.problems(), tally.notes());
        }
    }

    /** The honest client's session, when the attack has one, closed before its target stops. */
    private record Honesty(Optional<HonestProcess> client) implements AutoCloseable {
        @Override
        public void close() {
            client.ifPresent(HonestProcess::closeSession);
        }
    }

    /**
     * The idle expiry is the gateway's to run: the suite waits until the gateway's gauge shows only
     * the honest client's session open (which it keeps in use meanwhile; bounded by the expiry and
     * two minutes more). Then it watches the RSS give the memory back, as the gateway does by itself
     * (nothing is forced: an operator runs no jcmd), until it is near its baseline or three minutes
     * have passed; the RSS "after" is the last figure read.
     */
    private static void settle(Target target, Scale scale, Tally tally, Optional<HonestProcess> honest, long rssBefore)
            throws Exception {
        long started = System.nanoTime();
        if (target.metricsPort.isPresent()) {
            boolean expired = target.awaitOpenSessionsAtMost(target.metricsPort.get(), 1,
                    scale.settle().plus(Duration.ofMinutes(2)), () -> honest.ifPresent(HonestProcess::echo));
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            if (expired) {
                tally.note("sessions expired (gauge back to 1) " + seconds + " s after the flood");
            } else {
                tally.problem("sessions still open " + seconds + " s after the flood (idle expiry "
                        + scale.settle().toSeconds() + " s)");
            }
        }
        long expiredAt = System.nanoTime();
        boolean near = target.awaitRssAtMost(Row.nearBaseline(rssBefore), Duration.ofMinutes(3),
                () -> honest.ifPresent(HonestProcess::echo));
        tally.note((near ? "RSS near its baseline " : "RSS not near its baseline ")
                + Duration.ofNanos(System.nanoTime() - expiredAt).toSeconds() + " s after the expiry, nothing forced");
    }

    static List<Row> runAll(List<Attack> attacks, Scale scale) throws Exception {
        List<Row> rows = new java.util.ArrayList<>();
        try (HonestProcess.Kept honestJvm = new HonestProcess.Kept()) {
            for (Attack attack : attacks) {
                rows.add(run(attack, scale, honestJvm));
            }
        }
        return rows;
    }
}
