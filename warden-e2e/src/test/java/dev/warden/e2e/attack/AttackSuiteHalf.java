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
import org.junit.jupiter.api.TestInstance;

/**
 * The standing attack suite (issue 19): each attack against a fresh {@code warden gateway} or
 * {@code warden wrap}, in the short mode in CI ({@code -Dwarden.attack.mode=full} for the full one,
 * as {@code scripts/attack} runs it). Each must leave the target up, answer every request exactly
 * once and keep serving the honest client; those in {@link ExpectedToFail} must still fail. One
 * test class runs each half of the suite ({@link AttackSuite}), so that two forks share it; each
 * writes its half of the table to {@code target/attack-suite-NAME.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AttackSuiteHalf {

    static final Scale SCALE = Scale.fromProperties();
    /** This half's attacks, in the order the table lists them. */
    private final List<Attack> attacks;
    /** Its table's name: {@code target/attack-suite-NAME.md}. */
    private final String name;
    private final List<Row> rows = new CopyOnWriteArrayList<>();
    /** The honest client's JVM, kept from one attack to the next (each opens its own session). */
    private final HonestProcess.Kept honestJvm = new HonestProcess.Kept();

    AttackSuiteHalf(List<Attack> attacks, String name) {
        this.attacks = attacks;
        this.name = name;
    }

    @TestFactory
    Stream<DynamicTest> eachAttackLeavesTheTargetUpAndEveryRequestAnsweredOnce() {
        return AttackSuite.selected(attacks).stream().map(attack -> DynamicTest.dynamicTest(attack.name(), () -> {
            Row row = AttackRun.run(attack, SCALE, honestJvm);
            rows.add(row);
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
    void writeTheTable() throws IOException, InterruptedException {
        honestJvm.close();
        String table = Report.table(rows, SCALE, ExpectedToFail.ATTACKS);
        System.out.println(table);
        Path out = Path.of("target", "attack-suite-" + name + ".md");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, table);
    }
}
