package dev.warden.core.sanitize;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Prints recall per category and the false-positive rate on the benign set, as docs/reference/sanitizer.md reports.
 * Recall: the sample's category was detected and none of its sensitive substrings survived
 * {@code redact}. False positive: a benign text that {@code redact} changed.
 *
 * <p>Run: {@code ./mvnw -q -pl warden-core test -Dtest=SanitizerReportTest} (prints the table).
 */
public final class SanitizerReport {

    private SanitizerReport() {
    }

    record Row(String category, int samples, int detected, int clean) {
        double recall() {
            return samples == 0 ? 0 : (double) Math.min(detected, clean) / samples;
        }
    }

    static List<Row> rows(Sanitizer sanitizer) {
        return Corpus.SENSITIVE_FILES.stream().map(name -> {
            List<Corpus.Sample> samples = Corpus.load(name);
            int detected = 0;
            int clean = 0;
            for (Corpus.Sample s : samples) {
                SanitizedText r = sanitizer.sanitize(s.text(), Policy.REDACT);
                if (r.has(Corpus.categoryOf(s.category()))) {
                    detected++;
                }
                if (s.sensitive().stream().noneMatch(r.output()::contains)) {
                    clean++;
                }
            }
            return new Row(name, samples.size(), detected, clean);
        }).toList();
    }

    static List<Corpus.Sample> falsePositives(Sanitizer sanitizer) {
        return Corpus.load("benign").stream()
                .filter(s -> !sanitizer.sanitize(s.text(), Policy.REDACT).output().equals(s.text())).toList();
    }

    public static String table(Sanitizer sanitizer) {
        StringBuilder sb = new StringBuilder("| category | samples | detected | nothing sensitive left | recall |\n"
                + "|---|---:|---:|---:|---:|\n");
        for (Row row : rows(sanitizer)) {
            sb.append(String.format("| %s | %d | %d | %d | %.1f%% |%n", row.category(), row.samples(), row.detected(),
                    row.clean(), 100 * row.recall()));
        }
        int benign = Corpus.load("benign").size();
        int fp = falsePositives(sanitizer).size();
        sb.append(String.format("%nbenign texts: %d, changed by redact: %d (false-positive rate %.2f%%)%n", benign, fp,
                100.0 * fp / benign));
        return sb.toString();
    }

    /** One row of the harvested table: each column counts samples it applies to and those that pass. */
    record HarvestedRow(String source, String category, int samples, int withCanaries, int leaking, int withKeep,
            int keepKept, int actionable, int actionableKept, int json, int validJson, int benign,
            int benignIdentical) {

        HarvestedRow plus(HarvestedRow o) {
            return new HarvestedRow(source, category, samples + o.samples, withCanaries + o.withCanaries,
                    leaking + o.leaking, withKeep + o.withKeep, keepKept + o.keepKept, actionable + o.actionable,
                    actionableKept + o.actionableKept, json + o.json, validJson + o.validJson, benign + o.benign,
                    benignIdentical + o.benignIdentical);
        }

        static HarvestedRow of(HarvestedCorpus.Sample s, HarvestedCorpus.Verdict v) {
            return new HarvestedRow(s.source(), s.category(), 1, s.canaries().isEmpty() ? 0 : 1,
                    v.leakedCanaries().isEmpty() ? 0 : 1, s.keep().isEmpty() ? 0 : 1,
                    !s.keep().isEmpty() && v.lostKeeps().isEmpty() ? 1 : 0, s.actionable().isPresent() ? 1 : 0,
                    s.actionable().isPresent() && v.actionableKept() ? 1 : 0, s.json() ? 1 : 0,
                    s.json() && v.validJson() ? 1 : 0, s.benign() ? 1 : 0, s.benign() && v.benignIdentical() ? 1 : 0);
        }
    }

    /**
     * The harvested corpus per source and category, each sample sanitized by {@code sanitize}:
     * samples with a canary that leaked one, samples whose caller identifiers all survived,
     * validation failures that kept pointer and message, JSON outputs still valid, benign texts
     * unchanged (x/y: passing of applicable).
     */
    static String harvestedTable(Function<HarvestedCorpus.Sample, String> sanitize) {
        Map<String, HarvestedRow> rows = new LinkedHashMap<>();
        HarvestedRow total = new HarvestedRow("total", "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        for (HarvestedCorpus.Sample s : HarvestedCorpus.load()) {
            HarvestedRow one = HarvestedRow.of(s, HarvestedCorpus.judge(s, sanitize.apply(s)));
            rows.merge(s.source() + "|" + s.category(), one, HarvestedRow::plus);
            total = total.plus(one);
        }
        StringBuilder sb = new StringBuilder("| source | category | samples | canaries leaked | caller identifiers kept "
                + "| actionable kept | valid JSON | benign identical |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        rows.values().stream().sorted(java.util.Comparator.comparing(HarvestedRow::source)
                .thenComparing(HarvestedRow::category)).forEach(r -> sb.append(harvestedLine(r)));
        sb.append(harvestedLine(total));
        return sb.toString();
    }

    private static String harvestedLine(HarvestedRow r) {
        return String.format("| %s | %s | %d | %s | %s | %s | %s | %s |%n", r.source(), r.category(), r.samples(),
                ratio(r.leaking(), r.withCanaries()), ratio(r.keepKept(), r.withKeep()),
                ratio(r.actionableKept(), r.actionable()), ratio(r.validJson(), r.json()),
                ratio(r.benignIdentical(), r.benign()));
    }

    private static String ratio(int passing, int applicable) {
        return applicable == 0 ? "–" : passing + "/" + applicable;
    }

    public static void main(String[] args) {
        System.out.print(table(Sanitizer.ofDefaults()));
        System.out.println();
        System.out.print(harvestedTable(HarvestedCorpusTest::sanitize));
    }
}
