package dev.warden.audit;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A server's grade: {@link Scored} from its findings by one documented formula, or {@link
 * Incomplete} when the audit could not probe it (a letter would say a server was judged that was
 * not). The formula: each distinct (rule, tool) pair with a high or medium finding costs 25 or 10
 * points, each rule with a low finding (on any number of tools) 3, notes nothing, from 100, floored
 * at 0; A from 90, B from 75, C from 60, D from 40, else F; and any high finding caps the grade at C.
 * Counting pairs rather than findings keeps one leaky tool probed twenty ways from scoring as twenty
 * problems; counting a low rule once keeps a habit every tool shares (no machine-readable code) from
 * outweighing one real leak. Partial coverage (some tools probed) is scored on what was probed; the
 * report says how much ({@link Coverage#summary()}).
 */
public sealed interface Grade permits Grade.Scored, Grade.Incomplete {

    String FORMULA = "100 - (25 per high and 10 per medium finding, counted once per rule and "
            + "tool; 3 per low finding, counted once per rule), floored at 0; A >= 90, B >= 75, C >= 60, D >= 40, "
            + "else F; any high finding caps at C; no grade (incomplete) when no tool could be probed";

    /** What a report shows as the grade: the letter, or {@code incomplete}. */
    String label();

    /**
     * @param letter A to F
     * @param score  0 to 100
     */
    record Scored(String letter, int score) implements Grade {
        public Scored {
            Objects.requireNonNull(letter, "letter");
            if (!Set.of("A", "B", "C", "D", "F").contains(letter) || score < 0 || score > 100) {
                throw new IllegalArgumentException("a grade is A to F with a score of 0 to 100, got " + letter + " " + score);
            }
        }

        @Override
        public String label() {
            return letter;
        }
    }

    /** No grade: the server could not be probed; {@code why} says what stopped the audit. */
    record Incomplete(String why) implements Grade {
        public static final String LABEL = "incomplete";

        public Incomplete {
            Objects.requireNonNull(why, "why");
        }

        @Override
        public String label() {
            return LABEL;
        }
    }

    /** Incomplete when {@code coverage} says no tool could be probed; else scored from {@code findings}. */
    static Grade of(List<Finding> findings, Coverage coverage) {
        return coverage.incomplete().<Grade>map(Incomplete::new).orElseGet(() -> scored(findings));
    }

    static Scored scored(List<Finding> findings) {
        Set<String> counted = new HashSet<>();
        int score = 100;
        boolean high = false;
        for (Finding f : findings) {
            String tool = f.severity() == Severity.LOW ? "" : f.tool().orElse("");
            if (!counted.add(f.rule().id() + "\u0000" + tool)) {
                continue;
            }
            score -= switch (f.severity()) {
                case HIGH -> 25;
                case MEDIUM -> 10;
                case LOW -> 3;
                case NOTE -> 0;
            };
            high |= f.severity() == Severity.HIGH;
        }
        score = Math.max(0, score);
        String letter = score >= 90 ? "A" : score >= 75 ? "B" : score >= 60 ? "C" : score >= 40 ? "D" : "F";
        if (high && letter.compareTo("C") < 0) {
            letter = "C";
        }
        return new Scored(letter, score);
    }
}
