package dev.warden.e2e.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs the attacking client's own work at a lower CPU priority ({@code nice 10}) for the whole run
 * of {@code scripts/attack}. In a real deployment the attacker is another machine; here it shares the two cores with
 * the gateway, and at equal priority the suite's own work (opening 10,000 connections, parsing
 * 100 MB of replies) would be charged to the gateway's latency. What is lowered: the carrier
 * threads of this JVM's virtual threads, on which every attack's requests and replies are handled
 * (the suite's {@link McpHttp} clients run on virtual threads). What is not: the gateway, its
 * upstreams (other processes, whose work for the attack is the gateway's to bear), this JVM's main
 * thread (which starts them: a child inherits its parent's priority, and a priority cannot be
 * raised again without privileges, which is also why the lowering lasts the whole run) and the
 * honest client (platform threads of its own, its replies handled on one too).
 *
 * <p>Linux only, through {@code renice} on the threads' ids ({@code /proc/self/task}); carriers
 * started later are lowered as they appear, by a watcher that looks twice a second. {@code
 * -Dwarden.attack.attackerPriority=same} (or {@code scripts/attack --attacker-priority same})
 * leaves everything at one priority, to compare.
 */
final class AttackerPriority implements AutoCloseable {

    private final Set<String> lowered = new HashSet<>();
    private final Thread watcher;
    private volatile boolean running = true;

    private AttackerPriority() {
        watcher = Thread.ofPlatform().daemon().name("attacker-priority").start(() -> {
            while (running) {
                lowerNewCarriers();
                try {
                    Thread.sleep(500); // a poll interval: carriers announce nothing when they start
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Lowers the attacker's priority from now on; a no-op where it cannot or was told not to. */
    static AutoCloseable forTheRun() {
        if ("same".equals(System.getProperty("warden.attack.attackerPriority"))
                || !Files.isDirectory(Path.of("/proc/self/task"))) {
            return () -> { };
        }
        return new AttackerPriority();
    }

    private void lowerNewCarriers() {
        List<String> ids = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String id = task.getFileName().toString();
                if (!lowered.contains(id) && name(task).startsWith("ForkJoinPool")) {
                    ids.add(id);
                }
            }
        } catch (IOException e) {
            return; // a thread ended while listed: the next look sees the rest
        }
        if (ids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", "10", "-p"));
        command.addAll(ids);
        try {
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            renice.waitFor();
            lowered.addAll(ids);
        } catch (IOException e) {
            running = false; // no renice here: everything stays at one priority
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String name(Path task) {
        try {
            return Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        watcher.interrupt();
        watcher.join();
    }
}
