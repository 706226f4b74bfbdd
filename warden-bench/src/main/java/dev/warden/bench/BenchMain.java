package dev.warden.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the benchmarks and prints docs/benchmarks.md's table: sanitizer throughput in MB/s (characters as
 * bytes) at 64 KiB and 1 MiB, and the ratio of the two times (16 means linear: 16x the input,
 * 16x the time); then the same for JSON values ({@link SanitizerJsonBenchmark}), against their
 * serialized length; for {@link TelemetryBenchmark}, the OTLP size of one traced call's spans.
 * Arguments are passed to JMH as an include regex (default: everything).
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new OptionsBuilder()
                .include(args.length > 0 ? args[0] : "dev.warden.bench.*")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, double[]> rows = new LinkedHashMap<>();
        Map<String, double[]> jsonRows = new LinkedHashMap<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            double micros = result.getPrimaryResult().getScore();
            if (benchmark.endsWith("SanitizerBenchmark.redact")) {
                String kind = result.getParams().getParam("kind");
                int size = Integer.parseInt(result.getParams().getParam("size"));
                double[] row = rows.computeIfAbsent(kind, k -> new double[4]);
                if (size == 65536) {
                    row[0] = micros;
                } else {
                    row[1] = micros;
                }
            } else if (benchmark.endsWith("SanitizerJsonBenchmark.redact")) {
                String kind = result.getParams().getParam("kind");
                int size = Integer.parseInt(result.getParams().getParam("size"));
                double[] row = jsonRows.computeIfAbsent(kind, k -> new double[4]);
                // MB/s against the value's serialized length, which the builder only approaches.
                int bytes = JsonInputs.serializedSize(JsonInputs.of(kind, size));
                row[size == 65536 ? 0 : 1] = micros;
                row[size == 65536 ? 2 : 3] = bytes;
            } else {
                System.out.printf("%s: %.0f %s%n", benchmark, micros, result.getPrimaryResult().getScoreUnit());
            }
        }
        if (results.stream().anyMatch(r -> r.getParams().getBenchmark().contains("TelemetryBenchmark"))) {
            System.out.printf("TelemetryBenchmark: one call's two spans are %d bytes of OTLP protobuf%n",
                    TelemetryBenchmark.bytesPerCall());
        }
        if (!rows.isEmpty()) {
            System.out.println();
            System.out.println("| input | 64 KiB: MB/s | 1 MiB: MB/s | time ratio 1 MiB / 64 KiB (16 = linear) |");
            System.out.println("|---|---:|---:|---:|");
            rows.forEach((kind, row) -> System.out.printf("| %s | %.0f | %.0f | %.1f |%n", kind,
                    65536 / row[0], 1048576 / row[1], row[1] / row[0]));
        }
        if (!jsonRows.isEmpty()) {
            System.out.println();
            System.out.println("| JSON input (`sanitizeJson`, serialized size) | 64 KiB: MB/s | 1 MiB: MB/s "
                    + "| time ratio 1 MiB / 64 KiB (16 = linear) |");
            System.out.println("|---|---:|---:|---:|");
            jsonRows.forEach((kind, row) -> System.out.printf("| %s | %.0f | %.0f | %.1f |%n", kind,
                    row[2] / row[0], row[3] / row[1], row[1] / row[0]));
        }
    }
}
