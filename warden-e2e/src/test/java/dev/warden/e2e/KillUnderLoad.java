package dev.warden.e2e;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code kill -9} of one replica while {@value #WORKERS} clients (an API key and a session each,
 * opened through HAProxy) make {@value #CALLS_PER_WORKER} calls each, quick ones (echo) and ~2 s
 * ones (server-everything's long-running operation), so that some are in flight on the victim when
 * it dies. A failed call is retried (once more if the retry, too, met the dying victim). Meanwhile the survivors' own /readyz is polled, and after
 * the kill HAProxy's stats until the victim is DOWN. Each worker stays under the per-client rate
 * (calls and retries at most 10).
 */
final class KillUnderLoad {

    static final int WORKERS = 10;
    static final int CALLS_PER_WORKER = 5;
    static final Duration PATIENCE = Duration.ofSeconds(60);

    record Attempt(String worker, int index, String tool, boolean retry, FrontCall call) {
        @Override
        public String toString() {
            return worker + " call " + index + " (" + tool + (retry ? ", retry" : "") + ") on " + call().replica()
                    + ": " + call().ending() + " " + call().detail();
        }
    }

    record Report(List<Attempt> attempts, List<Attempt> failed, List<Attempt> retries, List<Attempt> unexpected,
            Map<String, long[]> audit, Map<String, String> auditShortfall, int readinessPolls,
            List<String> readinessFailures, Duration toDown, List<Throwable> errors) {

        void print() {
            long answered = attempts.stream().filter(a -> !a.retry() && a.call().answered()).count();
            long committed = audit.values().stream().mapToLong(c -> c[1]).sum();
            long acknowledged = audit.values().stream().mapToLong(c -> c[0]).sum();
            System.out.printf("ACCEPTANCE: kill -9 of replica-2 under load: %d clients, %d calls (+%d retries),"
                    + " %d answered at the first attempt; failed in flight on replica-2: %d (%d HAProxy JSON-RPC error, %d cut stream);"
                    + " retried ok: %d/%d; unexpected: %d; audit records in PostgreSQL for acknowledged calls:"
                    + " %d found for %d acknowledged; survivors' /readyz: %d polls, %d not 200; HAProxy marked it"
                    + " DOWN after %s%n", WORKERS, attempts.size() - retries.size(), retries.size(), answered,
                    failed.size(), failed.stream().filter(a -> a.call().ending() == FrontCall.Ending.PROXY_ERROR)
                            .count(),
                    failed.stream().filter(a -> a.call().ending() == FrontCall.Ending.CUT_STREAM).count(),
                    retries.stream().filter(a -> a.call().answered()).count(), retries.size(), unexpected.size(),
                    committed, acknowledged, readinessPolls, readinessFailures.size(),
                    toDown == null ? "never" : toDown.toMillis() + " ms");
            failed.forEach(a -> System.out.println("ACCEPTANCE:   failed: " + a));
            unexpected.forEach(a -> System.out.println("ACCEPTANCE:   unexpected: " + a));
            errors.forEach(e -> System.out.println("ACCEPTANCE:   worker error: " + e));
        }
    }

    private final ReplicaCluster cluster;
    private final String run;
    private final Map<String, String> keys;
    private final String victim;
    private final List<String> survivors;
    private final List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
    private final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger answered = new AtomicInteger();

    KillUnderLoad(ReplicaCluster cluster, String run, Map<String, String> keys, String victim, List<String> survivors) {
        this.cluster = cluster;
        this.run = run;
        this.keys = keys;
        this.victim = victim;
        this.survivors = survivors;
    }

    static String worker(String run, int w) {
        return "load-" + run + "-" + w;
    }

    Report run() throws Exception {
        AtomicBoolean polling = new AtomicBoolean(true);
        AtomicInteger polls = new AtomicInteger();
        List<String> notReady = Collections.synchronizedList(new ArrayList<>());
        Map<String, Integer> ports = new TreeMap<>();
        for (String s : survivors) {
            ports.put(s, cluster.port(s));
        }
        Thread poller = Thread.ofVirtual().start(() -> {
            while (polling.get()) {
                ports.forEach((replica, port) -> {
                    int status = cluster.readiness(port);
                    polls.incrementAndGet();
                    if (status != 200) {
                        notReady.add(replica + ": " + status);
                    }
                });
                pace(Duration.ofMillis(100)); // a probe's own interval, as HAProxy's check has one
            }
        });
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            String name = worker(run, w);
            workers.add(Thread.ofVirtual().start(() -> work(name)));
        }
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        // The kill waits for load on every replica and a call in flight on the victim.
        while (answered.get() < WORKERS || inFlight.getOrDefault(victim, new AtomicInteger()).get() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no call in flight on " + victim + " after " + answered.get() + " answers");
            }
            pace(Duration.ofMillis(5)); // 2 cores shared with the replicas: spinning would starve them
        }
        ProcessHandle process = cluster.process(victim);
        List<ProcessHandle> upstreams = process.descendants().toList();
        long killed = System.nanoTime();
        process.destroyForcibly(); // SIGKILL
        upstreams.forEach(ProcessHandle::destroyForcibly);
        Duration toDown = null;
        while (System.nanoTime() < deadline) {
            if (cluster.stats().get(victim).get("status").startsWith("DOWN")) {
                toDown = Duration.ofNanos(System.nanoTime() - killed);
                break;
            }
            pace(Duration.ofMillis(20));
        }
        for (Thread t : workers) {
            if (!t.join(PATIENCE)) {
                throw new AssertionError("a client did not finish");
            }
        }
        polling.set(false);
        poller.join(PATIENCE);
        List<Attempt> all = List.copyOf(attempts);
        List<Attempt> retries = all.stream().filter(Attempt::retry).toList();
        List<Attempt> failed = all.stream().filter(a -> !a.retry() && !a.call().answered()).toList();
        List<Attempt> unexpected = all.stream().filter(a -> !a.call().answered()
                && a.call().ending() != FrontCall.Ending.PROXY_ERROR
                && a.call().ending() != FrontCall.Ending.CUT_STREAM).toList();
        Map<String, long[]> audit = audit(all);
        Map<String, String> shortfall = new TreeMap<>();
        audit.forEach((client, c) -> {
            if (c[1] < c[0]) {
                shortfall.put(client, c[0] + " acknowledged, " + c[1] + " recorded");
            }
        });
        return new Report(all, failed, retries, unexpected, audit, shortfall, polls.get(), List.copyOf(notReady),
                toDown, List.copyOf(errors));
    }

    private void work(String name) {
        try {
            Map<String, String> key = AuthedHttp.apiKey(keys.get(name));
            String session = AuthedHttp.initialize(cluster.url(), key, name);
            for (int i = 0; i < CALLS_PER_WORKER; i++) {
                boolean slow = i % 2 == 0;
                String tool = slow ? "trigger-long-running-operation" : "echo";
                String args = slow ? "{\"duration\":2,\"steps\":2}" : "{\"message\":\"" + name + " " + i + "\"}";
                Attempt first = new Attempt(name, i, tool, false, call(key, session, 10 + i, tool, args));
                attempts.add(first);
                if (!first.call().answered()) {
                    Attempt retry = new Attempt(name, i, tool, true, call(key, session, 1000 + i, tool, args));
                    attempts.add(retry);
                    // The victim's listen backlog may still accept a connection in the instant it dies
                    // (HAProxy has not seen it gone): that retry is cut too, and a client sends it again.
                    if (!retry.call().answered() && victim.equals(retry.call().replica())) {
                        attempts.add(new Attempt(name, i, tool, true, call(key, session, 2000 + i, tool, args)));
                    }
                }
            }
        } catch (Throwable e) {
            errors.add(e);
            attempts.add(new Attempt(name, -1, "?", false, new FrontCall(FrontCall.Ending.OTHER, "?", e.toString(),
                    null)));
        }
    }

    /** A call, counted in flight on its replica from its response's headers to its end. */
    private FrontCall call(Map<String, String> key, String session, int id, String tool, String args)
            throws InterruptedException {
        String[] on = {null};
        FrontCall call = FrontCall.send(cluster.url(), key, session, id, tool, args, replica -> {
            on[0] = replica;
            inFlight.computeIfAbsent(replica, r -> new AtomicInteger()).incrementAndGet();
        });
        if (on[0] != null) {
            inFlight.get(on[0]).decrementAndGet();
        }
        if (call.answered() && call.answer().at("/result/isError").asBoolean()) {
            // A tool error (RATE_LIMITED, say) is not what this run is about: counted as unexpected.
            return new FrontCall(FrontCall.Ending.OTHER, call.replica(), call.answer().toString(), call.answer());
        }
        if (call.answered()) {
            answered.incrementAndGet();
        }
        return call;
    }

    /** For each client: calls acknowledged (answered with a result) and OK records in PostgreSQL. */
    private Map<String, long[]> audit(List<Attempt> all) throws Exception {
        Map<String, long[]> counts = new TreeMap<>();
        try (Connection db = cluster.postgres();
             PreparedStatement q = db.prepareStatement("SELECT count(*) FROM warden_cluster.warden_audit"
                     + " WHERE client LIKE ? AND outcome = 'OK' AND tool IS NOT NULL")) {
            for (int w = 0; w < WORKERS; w++) {
                String name = worker(run, w);
                long acknowledged = all.stream().filter(a -> a.worker().equals(name) && a.call().answered()).count();
                q.setString(1, name + "#%");
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    counts.put(name, new long[] {acknowledged, rs.getLong(1)});
                }
            }
        }
        return counts;
    }

    private static void pace(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
