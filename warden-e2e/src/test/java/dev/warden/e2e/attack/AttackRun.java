package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Runs one attack against a fresh target and measures it. */
final class AttackRun {

    private AttackRun() {
    }

    static Row run(Attack attack, Scale scale) throws Exception {
        try (Target target = attack.starter().start(scale)) {
            Optional<Honest> honest = attack.honestTool().isPresent()
                    ? Optional.of(new Honest(new McpHttp(target.url.orElseThrow()), attack.honestTool().get()))
                    : Optional.empty();
            honest.ifPresent(h -> h.sample(20)); // warm-up: the first calls start the upstream and the JIT
            Honest.Sample before = honest.map(h -> h.sample(scale.honestSamples())).orElseGet(Honest.Sample::new);
            long rssBefore = target.rssMiB();
            RssPeak peak = new RssPeak(target);
            Optional<Honest.Background> during = honest.map(Honest::background);
            Tally tally = new Tally();
            try {
                attack.body().run(target, scale, tally);
            } catch (Exception | AssertionError e) {
                tally.problem("the attack itself failed: " + e);
            }
            Honest.Sample duringSample = during.isPresent() ? during.get().stop() : new Honest.Sample();
            if (attack.settles() && !scale.settle().isZero()) {
                waitWhileMeasuring(scale.settle());
            }
            long rssAfter = target.rssMiB();
            long rssPeak = peak.stop();
            boolean up = target.alive();
            boolean servedAfter = honest.map(h -> h.echo().isPresent()).orElse(true);
            honest.map(h -> h.firstFailure.get()).filter(java.util.Objects::nonNull)
                    .ifPresent(f -> tally.note("the honest client's first unserved call got: " + f));
            return new Row(attack.name(), scale.full(), rssBefore, rssPeak, rssAfter, attack.rssBoundMiB(),
                    before.p50Millis(), duringSample.p50Millis(), duringSample.calls(),
                    duringSample.unserved.get() + before.unserved.get() + (servedAfter ? 0 : 1), tally.expected.get(), tally.received.get(), up,
                    tally.problems(), tally.notes());
        }
    }

    /** The idle expiry is the gateway's to run; the suite only gives it the time (the full mode's settle). */
    private static void waitWhileMeasuring(Duration settle) throws InterruptedException {
        Thread.sleep(settle.toMillis());
    }

    static List<Row> runAll(List<Attack> attacks, Scale scale) throws Exception {
        List<Row> rows = new java.util.ArrayList<>();
        for (Attack attack : attacks) {
            rows.add(run(attack, scale));
        }
        return rows;
    }
}
