package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.testkit.Docs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Where wrap's options are listed besides {@link WrapOption}'s table, they are the table's. */
class WrapOptionTest {

    private static final Path REPOSITORY = Docs.repository();
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z-]*");

    /** The names of wrap's options, those that take a value or those that take none (the early start's view). */
    static Set<String> table(boolean takingValues) {
        Set<String> names = new TreeSet<>();
        for (WrapOption option : WrapOption.values()) {
            if (option.takesValue() == takingValues) {
                names.add(option.optionName);
            }
        }
        return names;
    }

    /** The launcher's list in {@code NAME=" --a --b "} (it finds the server's command before the JVM starts). */
    private static Set<String> launcherList(String name) throws Exception {
        List<String> lines = Files.readAllLines(REPOSITORY.resolve("warden"));
        String line = lines.stream().filter(l -> l.startsWith(name + "=\"")).findFirst().orElseThrow();
        return new TreeSet<>(Arrays.asList(line.substring(name.length() + 2, line.length() - 1).trim().split(" ")));
    }

    @Test
    void theLauncherKnowsWrapsOptionsAsTheTableHasThem() throws Exception {
        assertThat(launcherList("WRAP_VALUE_OPTIONS")).isEqualTo(table(true));
        assertThat(launcherList("WRAP_FLAG_OPTIONS")).isEqualTo(table(false));
    }

    @Test
    void theGuideListsEveryOptionOfWrapAndNoOther() throws Exception {
        String guide = Files.readString(REPOSITORY.resolve("docs/guides/protect-a-server.md"));
        int start = guide.indexOf("`warden wrap` options:");
        assertThat(start).as("the guide's paragraph on wrap's options").isNotNegative();
        int end = guide.indexOf("\n\n", start);
        Set<String> listed = new TreeSet<>();
        Matcher option = OPTION.matcher(guide.substring(start, end < 0 ? guide.length() : end));
        while (option.find()) {
            listed.add(option.group());
        }

        Set<String> all = new TreeSet<>(table(true));
        all.addAll(table(false));
        assertThat(listed).isEqualTo(all);
    }
}
