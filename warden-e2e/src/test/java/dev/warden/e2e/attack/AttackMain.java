package dev.warden.e2e.attack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scripts/attack}'s entry: runs the selected attacks in the chosen mode and prints the
 * markdown table (also written to {@code -Dwarden.attack.table}). Exits 1 when an attack not in
 * {@link ExpectedToFail} failed, or one in it held.
 */
public final class AttackMain {

    private AttackMain() {
    }

    public static void main(String[] args) throws Exception {
        Scale scale = Scale.fromProperties();
        List<Row> rows = new ArrayList<>();
        boolean surprise = false;
        HonestProcess.Kept honestJvm = new HonestProcess.Kept();
        for (Attack attack : AttackSuite.selected()) {
            System.err.println("attack: " + attack.name() + " (" + attack.what() + ")");
            long start = System.nanoTime();
            Row row = AttackRun.run(attack, scale, honestJvm);
            rows.add(row);
            System.err.println("  " + (row.held() ? "held" : "failed: " + row.failures()) + " ("
                    + (System.nanoTime() - start) / 1_000_000 + " ms)");
            surprise |= row.held() == ExpectedToFail.ATTACKS.containsKey(attack.name());
        }
        honestJvm.close();
        String table = Report.table(rows, scale, ExpectedToFail.ATTACKS);
        System.out.println(table);
        String out = System.getProperty("warden.attack.table", "");
        if (!out.isEmpty()) {
            Files.writeString(Path.of(out), table);
        }
        System.exit(surprise ? 1 : 0);
    }
}
