package dev.warden.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time and resident memory of a process, and of its process tree, from /proc (Linux; zero
 * elsewhere or once the process is gone). A tree's CPU time sums utime+stime+cutime+cstime over the
 * process and its live descendants: a descendant that has ended is then counted once, in the
 * cutime/cstime of the parent that reaped it (supergateway's per-session children, say).
 */
final class ProcStats {

    /** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
    private static final long TICKS = 100;

    private ProcStats() {
    }

    /** utime+stime of the process itself (all its threads, not its children), in µs. */
    static long ownCpuMicros(long pid) {
        long[] f = stat(pid);
        return (f[0] + f[1]) * 1_000_000L / TICKS;
    }

    /** The process and its descendants, in µs (see the class comment). */
    static long treeCpuMicros(long pid) {
        long ticks = 0;
        for (long p : tree(pid)) {
            long[] f = stat(p);
            ticks += f[0] + f[1] + f[2] + f[3];
        }
        return ticks * 1_000_000L / TICKS;
    }

    /** VmRSS of the process alone, in KiB. */
    static long rssKib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or gone
        }
        return 0;
    }

    /** VmRSS summed over the process and its descendants, in KiB (shared pages counted in each). */
    static long treeRssKib(long pid) {
        return tree(pid).stream().mapToLong(ProcStats::rssKib).sum();
    }

    private static List<Long> tree(long pid) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        return pids;
    }

    /** utime, stime, cutime, cstime (fields 14 to 17) in clock ticks. */
    private static long[] stat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // counted from the state (field 3), after the command name, which may hold spaces
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                Long.parseLong(f[14])};
        } catch (IOException | RuntimeException e) {
            return new long[4];
        }
    }
}
