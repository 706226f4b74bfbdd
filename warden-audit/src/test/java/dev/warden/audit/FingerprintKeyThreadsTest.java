package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A run's key stays with the run: a thread started during it does not keep it after. */
class FingerprintKeyThreadsTest {

    @Test
    void aThreadStartedDuringARunDoesNotKeepItsKey() throws Exception {
        FingerprintKey run = FingerprintKey.random();
        CountDownLatch runEnded = new CountDownLatch(1);
        CompletableFuture<String> later = new CompletableFuture<>();
        String inRun = run.during(() -> {
            // a thread a run starts and that outlives it, as an HTTP client's or a pool's does
            new Thread(() -> {
                try {
                    runEnded.await();
                    later.complete(FingerprintKey.current().fingerprint("value"));
                } catch (InterruptedException e) {
                    later.completeExceptionally(e);
                }
            }).start();
            return FingerprintKey.current().fingerprint("value");
        });
        runEnded.countDown();
        assertThat(inRun).isEqualTo(run.fingerprint("value"));
        assertThat(later.get(30, TimeUnit.SECONDS)).isNotEqualTo(inRun)
                .isEqualTo(FingerprintKey.current().fingerprint("value"));
    }
}
