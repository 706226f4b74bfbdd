package dev.warden.e2e.attack;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/** Runs {@code n} tasks on virtual threads, at most {@code parallelism} at once, and waits for all. */
final class Parallel {

    interface Task {
        void run(int i) throws Exception;
    }

    private Parallel() {
    }

    static void run(int n, int parallelism, Task task) throws InterruptedException {
        Semaphore permits = new Semaphore(parallelism);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                permits.acquire();
                int index = i;
                pool.submit(() -> {
                    try {
                        task.run(index);
                    } catch (Exception e) {
                        // the task records its own failures in its tally
                    } finally {
                        permits.release();
                    }
                    return null;
                });
            }
        }
    }
}
