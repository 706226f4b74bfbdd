package dev.warden.core.sanitize;

import java.util.List;

/**
 * Prints recall per category and the false-positive rate on the benign set, as the README reports.
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

    public static void main(String[] args) {
        System.out.print(table(Sanitizer.ofDefaults()));
    }
}
