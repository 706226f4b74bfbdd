package dev.warden.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How schemas are generated, not what they say: one at a time (victools 5.0.0 is not thread-safe),
 * and nothing printed on stdout meanwhile (a stdio server's protocol stream). The hook into the
 * middle of a generation is an enum's toString(), which the generator calls to list its values.
 */
class SchemaGenerationTest {

    static final CountDownLatch ENTERED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    enum Gate {
        OPEN;

        @Override
        public String toString() {
            if (Thread.currentThread().getName().equals("first-generation")) {
                ENTERED.countDown();
                try {
                    RELEASE.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return "open";
        }
    }

    record Gated(Gate gate) {
    }

    record Other(String name) {
    }

    enum Loud {
        ON;

        @Override
        public String toString() {
            // What victools' DEBUG logging does through Logback's default console appender.
            System.out.println("DEBUG c.g.v.j.generator: generating");
            return "on";
        }
    }

    record Noisy(Loud loud) {
    }

    @Test
    void aSecondGenerationWaitsForTheFirst() throws Exception {
        Thread first = new Thread(() -> RecordSchemas.of(Gated.class), "first-generation");
        first.start();
        assertThat(ENTERED.await(30, TimeUnit.SECONDS)).as("the first generation reached the enum").isTrue();
        CompletableFuture<Object> second = new CompletableFuture<>();
        Thread other = new Thread(() -> second.complete(RecordSchemas.of(Other.class)), "second-generation");
        other.start();
        // Deterministic: the second either blocks on the generator's lock or (unsafe) runs to the end.
        while (other.getState() != Thread.State.BLOCKED && !second.isDone()) {
            Thread.onSpinWait();
        }
        boolean ranAlongside = second.isDone();
        RELEASE.countDown();
        first.join();
        other.join();
        assertThat(ranAlongside).as("a second schema was generated while the first was under way").isFalse();
        assertThat(second.get()).isNotNull();
    }

    @Test
    void nothingReachesStdoutWhileASchemaIsGenerated() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            RecordSchemas.of(Noisy.class);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("generating");
    }
}
