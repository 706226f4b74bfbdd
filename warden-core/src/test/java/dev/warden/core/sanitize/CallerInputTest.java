package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallerInputTest {

    @Test
    void aWordOfTheCallersSqlIsItsOwnIgnoringCase() {
        CallerInput caller = CallerInput.of(Json.mapper().readTree("{\"sql\":\"SELECT Emial FROM users\"}"));
        assertThat(caller.owns("\"emial\"")).isTrue();
        assertThat(caller.owns("users")).isTrue();
    }

    @Test
    void aRunOfTheCallersTextAtWordBoundariesIsItsOwn() {
        CallerInput caller = CallerInput.ofStrings(List.of("read /srv/app/notes.txt please"));
        assertThat(caller.owns("/srv/app/notes.txt")).isTrue();
        assertThat(caller.owns("app/no")).isFalse();
    }

    @Test
    void whatTheCallerDidNotSendIsNotItsOwn() {
        CallerInput caller = CallerInput.of(Json.mapper().readTree("{\"path\":\"notes.txt\"}"));
        assertThat(caller.owns("/srv/app/notes.txt")).isFalse();
        assertThat(caller.owns("customers_email_key")).isFalse();
    }

    @Test
    void theKeysTheCallerChoseAreItsOwnButMetaIsNot() {
        CallerInput caller = CallerInput.of(Json.mapper().readTree(
                "{\"row\":{\"full_name\":\"x\"},\"_meta\":{\"progressToken\":\"secret_tok\"}}"));
        assertThat(caller.owns("full_name")).isTrue();
        assertThat(caller.owns("secret_tok")).isFalse();
    }

    @Test
    void nothingIsOwnedWhenNothingWasSent() {
        assertThat(CallerInput.none().owns("anything")).isFalse();
    }

    @Test
    void aHostileValueCannotMakeALookupCostly() {
        String value = "a".repeat(CallerInput.MAX_VALUE_CHARS);
        CallerInput caller = CallerInput.ofStrings(java.util.Collections.nCopies(CallerInput.MAX_VALUES, value));
        // every place matches, none at a boundary: the lookup gives up, saying "not the caller's"
        assertThat(caller.owns("a".repeat(CallerInput.MAX_SPAN_CHARS))).isFalse();
    }

    @Test
    void theSanitizerKeepsAPathTheCallerAskedFor() {
        CallerInput caller = CallerInput.of(Json.mapper().readTree("{\"path\":\"/home/ada/report.txt\"}"));
        SanitizedText out = Sanitizer.ofDefaults().sanitize(
                "EISDIR: illegal operation on a directory, read '/home/ada/report.txt'", Policy.REDACT,
                ErrorCode.UPSTREAM_ERROR, caller);
        assertThat(out.output()).contains("/home/ada/report.txt");
    }

    @Test
    void theSanitizerStillRedactsAPathTheCallerDidNotSend() {
        CallerInput caller = CallerInput.of(Json.mapper().readTree("{\"path\":\"report.txt\"}"));
        SanitizedText out = Sanitizer.ofDefaults().sanitize(
                "ENOENT: no such file or directory, open '/srv/secret-app/data/report.txt'", Policy.REDACT,
                ErrorCode.UPSTREAM_ERROR, caller);
        assertThat(out.output()).doesNotContain("/srv/secret-app");
    }

    @Test
    void aCredentialTheCallerSentIsStillCaught() {
        String key = "AKIA" + "IOSFODNN7EXAMPLE";
        CallerInput caller = CallerInput.ofStrings(List.of(key));
        SanitizedText out = Sanitizer.ofDefaults().sanitize("bad key " + key, Policy.REDACT,
                ErrorCode.UPSTREAM_ERROR, caller);
        assertThat(out.output()).doesNotContain(key);
    }
}
