package dev.warden.e2e.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The attacking client at the lowest CPU priority (nice 19) while it attacks: a real attacker's
 * client runs on another machine, and here it shares the two cores with the gateway, its upstreams
 * and the honest client. Measured on a 2-core machine: 40,000 initializes, 16 at once, from a
 * client at nice 0 took the honest client's echo from 0.45 to 0.91 ms p50; from the same client at
 * nice 19, from 0.42 to 0.36 ms while the gateway still handled 3,100 initializes a second. The
 * slowdown was the attacker's own CPU, not the gateway's work; this keeps the suite measuring the
 * gateway's.
 *
 * <p>Every thread of this JVM but the suite's own (the one that starts the targets and the honest
 * client, whose processes must not inherit the priority, and the thread reading the honest
 * client's results) is set to nice 19 by {@code renice}, now
 * and every tenth of a second while the attack lasts, as the virtual-thread scheduler and the HTTP
 * client start threads of their own. The attack's body runs on a thread that is lowered before it
 * starts. When the attack ends the threads are set back to the suite's priority, where the system
 * allows it (raising a priority needs CAP_SYS_NICE: root, as CI runs; otherwise they stay low,
 * which slows only this JVM's later work, never the targets, started from the suite's thread).
 */
final class AttackerPriority implements AutoCloseable {

    private static final long EVERY_MILLIS = 100;
    /** Threads that work for the honest client, not the attacker: never lowered (a lowered thread cannot be raised again). */
    private static final Set<String> SPARED = ConcurrentHashMap.newKeySet();

    private final String suiteThread;
    private final Set<String> lowered = new HashSet<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread watcher;

    private final String suiteNice;

    private AttackerPriority(String suiteThread) {
        this.suiteThread = suiteThread;
        this.suiteNice = niceOf(suiteThread);
        lowerTheOthers();
        watcher = Thread.ofPlatform().daemon().name("attacker-priority").start(() -> {
            try {
                while (!done.await(EVERY_MILLIS, TimeUnit.MILLISECONDS)) {
                    lowerTheOthers();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Whether the attacker is lowered: {@code -Dwarden.attack.attackerPriority=normal} leaves it at
     * the suite's priority, to see what its own CPU costs the honest client.
     */
    static final boolean LOWERED = !"normal".equals(System.getProperty("warden.attack.attackerPriority"));

    /** Lowers every thread but the calling one (the suite's) until {@link #close}; a no-op off Linux. */
    static AttackerPriority lowerAllButThisThread() {
        return new AttackerPriority(thisThread());
    }

    /** Keeps the calling thread at its priority: it works for the honest client. */
    static void spareThisThread() {
        SPARED.add(thisThread());
    }

    /**
     * Runs {@code body} on a thread of its own at the lowest priority, and waits for it; what it
     * throws is rethrown here.
     */
    static void runLowered(Attack.Body body, Target target, Scale scale, Tally tally) throws Exception {
        Exception[] thrown = new Exception[1];
        Error[] error = new Error[1];
        Thread attacker = Thread.ofPlatform().name("attacker").start(() -> {
            if (LOWERED) {
                lower(List.of(thisThread()));
            }
            try {
                body.run(target, scale, tally);
            } catch (Exception e) {
                thrown[0] = e;
            } catch (Error e) {
                error[0] = e;
            }
        });
        attacker.join();
        if (error[0] != null) {
            throw error[0];
        }
        if (thrown[0] != null) {
            throw thrown[0];
        }
    }

    private synchronized void lowerTheOthers() {
        if (!LOWERED) {
            return;
        }
        List<String> threads = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.map(p -> p.getFileName().toString())
                    .filter(tid -> !tid.equals(suiteThread) && !SPARED.contains(tid) && !lowered.contains(tid)).forEach(threads::add);
        } catch (IOException e) {
            return; // no /proc: nothing to lower
        }
        if (!threads.isEmpty() && lower(threads)) {
            lowered.addAll(threads);
        }
    }

    /** {@code renice -n 19 -p TID...}: for a thread id, setpriority(2) lowers that thread alone. */
    private static boolean lower(List<String> threads) {
        return renice("19", threads);
    }

    private static boolean renice(String nice, List<String> threads) {
        if (threads.isEmpty() || threads.contains("") || nice.isEmpty()) {
            return false;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", nice, "-p"));
        command.addAll(threads);
        try {
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            renice.waitFor(5, TimeUnit.SECONDS);
            return true; // a thread that ended meanwhile makes renice exit 1; the others were lowered
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A thread's nice value, field 19 of /proc/self/task/TID/stat (empty when unknown). */
    private static String niceOf(String thread) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task", thread, "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** The calling thread's id in /proc (empty off Linux). */
    private static String thisThread() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    @Override
    public void close() throws InterruptedException {
        done.countDown();
        watcher.join();
        // Every thread but the suite's, not only those this watcher lowered: a thread started by a
        // lowered one in the last tenth of a second inherited nice 19 unseen.
        List<String> threads = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.map(p -> p.getFileName().toString()).filter(tid -> !tid.equals(suiteThread)).forEach(threads::add);
        } catch (IOException e) {
            return;
        }
        renice(suiteNice, threads);
        SPARED.clear(); // thread ids are reused: the next attack's honest reader says so again
    }
}
