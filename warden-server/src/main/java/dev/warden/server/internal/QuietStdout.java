package dev.warden.server.internal;

import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * Standard output held off while schemas are generated. On a stdio server, stdout is the protocol,
 * and victools logs at DEBUG through SLF4J: Logback without a configuration prints that to stdout,
 * before the first message. Logback's console (and any code printing to {@code System.out}) reaches
 * {@code System.err} instead for that moment; a provider that captured the stream at start-up
 * (Log4j 2's console without {@code follow}) must be configured not to log there (the guide says so).
 */
final class QuietStdout {

    private QuietStdout() {
    }

    /** Callers hold the generator's lock, so two generations never swap the stream over each other. */
    static <T> T during(Supplier<T> work) {
        PrintStream out = System.out;
        System.setOut(System.err);
        try {
            return work.get();
        } finally {
            System.setOut(out);
        }
    }
}
