package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code warden audit} is safe to point at production: against {@code recording-server.mjs} (the
 * official TypeScript SDK, recording every tools/call it receives), an audit without
 * {@code --allow-destructive} calls none of the tools annotated destructive or named for writing,
 * deleting, sending or paying, but does call the harmless ones; with the flag it calls them; a dry
 * run calls nothing.
 */
class AuditDestructiveToolsEndToEndTest {

    /** Annotated destructiveHint, named for a change, or named for a change despite a readOnlyHint. */
    private static final Set<String> DESTRUCTIVE = Set.of("archive_project", "tidy_workspace", "delete_file",
            "send_email", "pay_invoice", "write_note", "purchaseItem", "post_message", "submit_order",
            "cancel_subscription", "erase_draft");
    private static final Set<String> HARMLESS = Set.of("get_weather", "search_notes");

    private static Set<String> auditAndRecord(String... options) throws Exception {
        Path record = Files.createTempFile("warden-recorded-calls", ".jsonl");
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--timeout", "5s", "--rate", "1000"));
        command.addAll(List.of(options));
        command.addAll(List.of("--", Processes.NODE, Processes.NODE_DIR.resolve("recording-server.mjs").toString(),
                record.toString()));

        Processes.Result audited = Processes.run(command);

        assertThat(audited.exitCode()).as(audited.stderr()).isZero();
        return Files.readAllLines(record).stream().map(line -> Json.mapper().readTree(line).path("name").asString(""))
                .collect(Collectors.toSet());
    }

    @Test
    void withoutTheFlagNoDestructiveToolIsCalledButTheHarmlessOnesAre() throws Exception {
        Set<String> called = auditAndRecord();

        assertThat(called).containsAll(HARMLESS).doesNotContainAnyElementsOf(DESTRUCTIVE);
    }

    @Test
    void withAllowDestructiveTheDestructiveToolsAreCalledToo() throws Exception {
        Set<String> called = auditAndRecord("--allow-destructive");

        assertThat(called).containsAll(HARMLESS).containsAll(DESTRUCTIVE);
    }

    @Test
    void aDryRunCallsNothing() throws Exception {
        assertThat(auditAndRecord("--dry-run")).isEmpty();
        assertThat(auditAndRecord("--dry-run", "--allow-destructive")).isEmpty();
    }
}
