package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a stdio upstream's process is started with, from the gateway's own environment. */
class StdioEnvironmentTest {

    /** A gateway's environment: the shell's, and credentials its configuration interpolates for other upstreams. */
    private static final Map<String, String> GATEWAY = Map.ofEntries(
            Map.entry("PATH", "/usr/local/bin:/usr/bin:/bin"), Map.entry("HOME", "/home/warden"),
            Map.entry("USER", "warden"), Map.entry("SHELL", "/bin/bash"), Map.entry("LANG", "en_US.UTF-8"),
            Map.entry("LC_ALL", "en_US.UTF-8"), Map.entry("TZ", "Europe/Paris"), Map.entry("TMPDIR", "/tmp"),
            Map.entry("CRM_TOKEN", "s3cret-token"), Map.entry("PGPASSWORD", "hunter2"),
            Map.entry("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            Map.entry("HTTPS_PROXY", "http://user:pass@proxy:3128"), Map.entry("NODE_EXTRA_CA_CERTS", "/etc/ca.pem"));

    @Test
    void aServerGetsTheBaseAndWhatItsConfigSetsAndNothingElse() {
        Map<String, String> env = StdioEnvironment.minimal(Map.of("API_KEY", "for-this-server"), Set.of())
                .resolve(GATEWAY, false);

        assertThat(env).containsOnlyKeys("PATH", "HOME", "USER", "SHELL", "LANG", "LC_ALL", "TZ", "TMPDIR", "API_KEY");
        assertThat(env).containsEntry("API_KEY", "for-this-server").containsEntry("LC_ALL", "en_US.UTF-8");
    }

    @Test
    void variablesTheConfigNamesArePassedOnAndOnlyThose() {
        Map<String, String> env = StdioEnvironment.minimal(Map.of(), Set.of("NODE_EXTRA_CA_CERTS", "NOT_SET"))
                .resolve(GATEWAY, false);

        assertThat(env).containsEntry("NODE_EXTRA_CA_CERTS", "/etc/ca.pem").doesNotContainKeys("NOT_SET",
                "CRM_TOKEN", "PGPASSWORD", "AWS_SECRET_ACCESS_KEY", "HTTPS_PROXY");
    }

    @Test
    void whatTheConfigSetsWinsOverWhatIsInherited() {
        Map<String, String> env = StdioEnvironment.minimal(Map.of("PATH", "/opt/server/bin"), Set.of())
                .resolve(GATEWAY, false);

        assertThat(env).containsEntry("PATH", "/opt/server/bin");
    }

    @Test
    void onWindowsTheBaseIsMatchedWithoutCaseAndHoldsWhatProgramsNeedToStart() {
        Map<String, String> windows = Map.of("Path", "C:\\Windows\\system32", "SystemRoot", "C:\\Windows",
                "ComSpec", "C:\\Windows\\system32\\cmd.exe", "CRM_TOKEN", "s3cret-token");

        Map<String, String> env = StdioEnvironment.minimal(Map.of(), Set.of()).resolve(windows, true);

        assertThat(env).containsOnlyKeys("Path", "SystemRoot", "ComSpec");
    }

    @Test
    void aDropInInheritsEverything() {
        Map<String, String> env = StdioEnvironment.everything(Map.of("A", "1")).resolve(GATEWAY, false);

        assertThat(env).containsAllEntriesOf(GATEWAY).containsEntry("A", "1");
    }

    @Test
    void aNameThatIsNotAVariablesNameIsRefused() {
        assertThatThrownBy(() -> StdioEnvironment.minimal(Map.of(), Set.of("A=B")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itsTextNamesVariablesButNeverTheirValues() {
        assertThat(StdioEnvironment.minimal(Map.of("API_KEY", "for-this-server"), Set.of()).toString())
                .contains("API_KEY").doesNotContain("for-this-server");
    }
}
