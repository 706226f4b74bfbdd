package dev.warden.bench;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The console's searches of a file incident store of {@value #RECORDS} records over a week (28 MB,
 * two segments; printed at set-up), as the console asks them ({@code Routes}: up to 2000 read): its
 * pins page (the changed definitions, {@code BLOCKED} records, one in a hundred, over 14 days), a
 * period a week back, and the last hour. A search passes most records over by the time and code
 * at the head of their line; these show what reading the rest costs.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IncidentSearchBenchmark extends AverageTimeBenchmark {

    static final int RECORDS = 50_000;
    private static final int READ = 2000;
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    /** An upstream's error as an incident keeps it: a few hundred characters of text. */
    private static final String ORIGINAL = "ERROR: duplicate key value violates unique constraint \"orders_pkey\"\n"
            + "  Detail: Key (id)=(%d) already exists.\n  Where: SQL statement \"INSERT INTO orders (id, customer, total)"
            + " VALUES ($1, $2, $3)\" PL/pgSQL function place_order(integer,text,numeric) line 12 at SQL statement\n"
            + "  at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2733)";

    private Path dir;
    private FileIncidentStore store;

    @Setup
    public void fill() throws IOException {
        dir = Files.createTempDirectory("warden-search-bench");
        store = FileIncidentStore.open(dir, FileIncidentStore.DEFAULT_SEGMENT_BYTES, false,
                new Retention(1024L * 1024 * 1024, Duration.ofDays(30)), Clock.systemUTC());
        Duration step = Duration.ofDays(7).dividedBy(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            Instant time = NOW.minus(Duration.ofDays(7)).plus(step.multipliedBy(i));
            boolean pin = i % 100 == 0;
            store.record(Incident.ofText(Ref.random(), time, pin ? ErrorCode.BLOCKED : ErrorCode.UPSTREAM_ERROR,
                    pin ? "definition-pin" : "tools/call", Optional.of("place_order"), Optional.of("orders"),
                    ORIGINAL.formatted(i), List.of()));
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> segments = files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList();
            long bytes = 0;
            for (Path segment : segments) {
                bytes += Files.size(segment);
            }
            System.out.printf("incident store: %d records, %.1f MB in %d segments%n", RECORDS, bytes / 1e6,
                    segments.size());
        }
    }

    @TearDown
    public void remove() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The pins page: BLOCKED records over 14 days, one in a hundred. */
    @Benchmark
    public List<Incident> pins() {
        return store.list(NOW.minus(Duration.ofDays(14)), Optional.of(ErrorCode.BLOCKED), READ);
    }

    /** A search with {@code from} and {@code to} a week back: every newer record is passed over. */
    @Benchmark
    public List<Incident> aPeriodAWeekBack() {
        return store.list(NOW.minus(Duration.ofDays(7)), Optional.of(NOW.minus(Duration.ofDays(6))), Optional.empty(),
                READ);
    }

    /** The incidents page's default: the last hour (some 300 records), all read. */
    @Benchmark
    public List<Incident> theLastHour() {
        return store.list(NOW.minus(Duration.ofHours(1)), Optional.empty(), READ);
    }
}
