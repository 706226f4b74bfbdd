package dev.warden.audit.canary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The canary values and the scans that read their answers. */
class CanariesTest {

    private static final JsonNode STRING = Json.mapper().readTree("{\"type\":\"string\"}");

    @Test
    void a_property_is_url_shaped_by_a_word_of_its_name_or_by_its_format() {
        assertThat(List.of("url", "imageUrl", "callback_uri", "webhook", "href", "apiEndpoint", "link"))
                .allSatisfy(name -> assertThat(Canaries.urlShaped(name, STRING)).as(name).isTrue());
        assertThat(List.of("security", "curly", "path", "query", "hyperlinked"))
                .allSatisfy(name -> assertThat(Canaries.urlShaped(name, STRING)).as(name).isFalse());
        assertThat(Canaries.urlShaped("target", Json.mapper().readTree("{\"type\":\"string\",\"format\":\"uri\"}")))
                .isTrue();
    }

    @Test
    void a_shell_token_is_sent_split_and_counts_only_assembled_and_not_after_echo() {
        Canaries canaries = new Canaries("wdnprobe-1a2b3c4d", t -> "http://127.0.0.1:1/" + t);
        Canaries.Planted planted = canaries.semicolon("wdnprobe-1a2b3c4d");
        String token = ((Canary.Shell) planted.canary()).token();

        assertThat(planted.text()).doesNotContain(token).contains(Canaries.split(token)).endsWith("# wdnprobe-1a2b3c4d");
        assertThat(Texts.assembled("PING ok\n" + token + "\n", token)).isTrue();
        assertThat(Texts.assembled("unknown host: ; echo " + token, token)).isFalse();
        assertThat(Texts.assembled(token + "7", token)).isFalse();
    }

    @Test
    void every_canary_for_a_property_is_harmless_by_its_text() {
        Canaries canaries = new Canaries("wdnprobe-1a2b3c4d", t -> "http://127.0.0.1:1/" + t);

        assertThat(canaries.forProperty(List.of(), true)).extracting(Canaries.Planted::text).allSatisfy(text -> {
            assertThat(text).doesNotContain("rm ", ">", "curl", "wget", "nc ", "DROP", "DELETE", "UPDATE", "INSERT");
            if (text.contains("echo")) {
                assertThat(text.replaceAll("echo wdn\"\"probe-1a2b3c4d-c[0-9]+", "")).doesNotContain("echo");
            }
        });
        assertThat(canaries.url().text()).startsWith("http://127.0.0.1:1/wdn-1a2b3c4d-u");
    }

    @Test
    void paths_are_found_in_text_and_compared_normalized() {
        assertThat(AbsolutePaths.in("ENOENT: no such file or directory, open '/srv/x/corpus/a/../etc/passwd'"))
                .containsExactly("/srv/x/corpus/etc/passwd");
        assertThat(AbsolutePaths.in("see https://example.com/a and /var/log/app.log.")).containsExactly("/var/log/app.log");
        assertThat(AbsolutePaths.under("/srv/docs/a", "/srv/docs")).isTrue();
        assertThat(AbsolutePaths.under("/srv/docs2", "/srv/docs")).isFalse();
        assertThat(AbsolutePaths.normalize("/a/../../../etc/passwd")).isEqualTo("/etc/passwd");
    }
}
