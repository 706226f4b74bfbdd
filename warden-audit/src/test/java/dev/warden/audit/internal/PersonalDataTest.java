package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Sanitizer;
import org.junit.jupiter.api.Test;

/** Personal data belongs to someone: ssh remotes, role mailboxes, test cards and example SSNs do not. */
class PersonalDataTest {

    private final LeakScan scan = new LeakScan(Sanitizer.ofDefaults());

    private void assertNone(String text) {
        assertThat(scan.personal(InstructionsInContentTest.answer(text), CallerInput.none())).as(text).isEmpty();
        assertThat(scan.personal(text, "stderr", CallerInput.none())).as("stderr: " + text).isEmpty();
    }

    private void assertKinds(String text, String... kinds) {
        assertThat(scan.personal(InstructionsInContentTest.answer(text), CallerInput.none())).as(text)
                .extracting(LeakScan.Leak::kind).containsExactly(kinds);
        assertThat(scan.personal(text, "stderr", CallerInput.none())).as("stderr: " + text)
                .extracting(LeakScan.Leak::kind).containsExactly(kinds);
    }

    @Test
    void anSshRemoteIsNoEmail() {
        assertNone("Cloned git@github.com:owner/repo.git into ./repo");
        assertNone("remote: git@gitlab.com:group/sub/project.git");
    }

    @Test
    void roleMailboxesAreNoPerson() {
        assertNone("From: noreply@github.com");
        assertNone("Write to support@acme-widgets.com or no-reply@mailer.acme-widgets.com; admin@corp.io, "
                + "Info@Northwind.com");
    }

    @Test
    void publishedTestCardsAndExampleSsnsAreNoOnesData() {
        assertNone("Use the test card 4242 4242 4242 4242 or 4111 1111 1111 1111 (any CVC).");
        assertNone("Test with 4242424242424242 and 5555-5555-5555-4444.");
        assertNone("An SSN looks like 078-05-1120.");
    }

    @Test
    void aPersonsAddressCardAndSsnAreStillReported() {
        assertKinds("Owner: dana.whitfield@acme-widgets.com", "email");
        assertKinds("Contact: 12345+octocat@users.noreply.github.com", "email");
        assertKinds("Mail dana@corp.io: she knows", "email");
        assertKinds("Card 4539 1488 0343 6467 declined", "card-number");
        assertKinds("SSN 536-22-8726 on file", "ssn");
    }
}
