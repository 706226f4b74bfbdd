package dev.warden.e2e.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The standing attack suite (issue 19): each attack against a fresh {@code warden gateway} or
 * {@code warden wrap}, in the short mode in CI ({@code -Dwarden.attack.mode=full} for the full one,
 * as {@code scripts/attack} runs it). Each must leave the target up, answer every request exactly
 * once and keep serving the honest client; those in {@link ExpectedToFail} must still fail. The
 * table is written to {@code target/attack-suite.md}.
 */
class AttackSuiteTest {

    static final Scale SCALE = Scale.fromProperties();
    static final List<Row> ROWS = new CopyOnWriteArrayList<>();

    @TestFactory
    Stream<DynamicTest> eachAttackLeavesTheTargetUpAndEveryRequestAnsweredOnce() {
        return AttackSuite.selected().stream().map(attack -> DynamicTest.dynamicTest(attack.name(), () -> {
            Row row = AttackRun.run(attack, SCALE);
            ROWS.add(row);
            System.out.println("attack " + row.attack() + ": " + (row.held() ? "held" : "failed " + row.failures()));
            String expected = ExpectedToFail.ATTACKS.get(attack.name());
            if (expected == null) {
                assertThat(row.failures()).as(attack.name() + ": " + attack.what()).isEmpty();
            } else if (row.held()) {
                fail(attack.name() + " holds now: delete its line from ExpectedToFail.ATTACKS (" + expected + ")");
            }
        }));
    }

    @AfterAll
    static void writeTheTable() throws IOException {
        String table = Report.table(ROWS, SCALE, ExpectedToFail.ATTACKS);
        System.out.println(table);
        Path out = Path.of(System.getProperty("warden.attack.table", "target/attack-suite.md"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, table);
    }
}
