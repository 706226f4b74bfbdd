package dev.warden.e2e.attack;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One attack: how its target is started, whose echo the honest client times meanwhile (none for
 * {@code wrap}, whose one client is the attacker), the RSS bound it must stay under, and what it does.
 *
 * @param settles whether the RSS "after" waits for the scale's settle time (the sessions' idle expiry)
 */
record Attack(String name, String what, Starter starter, Optional<String> honestTool, long rssBoundMiB,
        boolean settles, Body body) {

    /** The bound on the gateway JVM's RSS (its heap is 512 MiB by the launcher's defaults). */
    static final long RSS_BOUND_MIB = 768;

    interface Starter {
        Target start(Scale scale) throws Exception;
    }

    interface Body {
        void run(Target target, Scale scale, Tally tally) throws Exception;
    }

    /** An attack on the standard gateway (server-everything and the hostile server); the honest client echoes on server-everything. */
    static Attack onGateway(String name, String what, Body body) {
        return new Attack(name, what, scale -> Target.gateway(Target.standardConfig(List.of(), List.of()), Map.of()),
                Optional.of("everything__echo"), RSS_BOUND_MIB, false, body);
    }

    /** An attack on {@code warden wrap} in front of the hostile server. */
    static Attack onWrap(String name, String what, List<String> options, Body body) {
        return new Attack(name, what, scale -> Target.wrap(options), Optional.empty(), RSS_BOUND_MIB, false, body);
    }

    Attack startedBy(Starter starter) {
        return new Attack(name, what, starter, honestTool, rssBoundMiB, settles, body);
    }

    Attack honestOn(String tool) {
        return new Attack(name, what, starter, Optional.of(tool), rssBoundMiB, settles, body);
    }

    Attack rssBound(long mib) {
        return new Attack(name, what, starter, honestTool, mib, settles, body);
    }

    /**
     * The body again and again until the scale's {@code repeatFor} has passed (once in the short
     * mode), each round's requests counted, the first round's notes kept: a malformed request is an
     * attack when an attacker sends it again and again, and a one-shot's window of a second gives
     * the honest client's p50 the gateway's first compilation of a new path, not the attack's cost.
     * Each round opens its own session (the body's), so these rows carry a session churn too.
     */
    Attack repeated() {
        Body once = body;
        return new Attack(name, what, starter, honestTool, rssBoundMiB, settles, (target, scale, tally) -> {
            long until = System.nanoTime() + scale.repeatFor().toNanos();
            int rounds = 0;
            try {
                do {
                    once.run(target, scale, tally);
                    tally.quiet(); // the notes of one round are the notes of all
                    rounds++;
                } while (System.nanoTime() < until);
            } finally {
                tally.loud(); // what the suite notes after the attack is kept
            }
            if (rounds > 1) {
                tally.noteAlways(rounds + " rounds in " + scale.repeatFor().toSeconds() + " s");
            }
        });
    }

    Attack settling() {
        return new Attack(name, what, starter, honestTool, rssBoundMiB, true, body);
    }
}
