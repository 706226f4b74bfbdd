package dev.warden.gateway.internal.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A resource URI is decided on only in the one form every upstream reads alike; anything an
 * upstream's parser would rewrite, or might read another way, is refused with the reason.
 */
class CanonicalUriTest {

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/static/document/architecture.md", "demo://resource/dynamic/text/1",
            "file:///srv/data/a%20b.txt", "https://example.com/a?x=%2F..%2F#f", "urn:isbn:0451450523",
            "demo://resource/dynamic/a..b/.c/d.", "x:/a//b", "mailto:Ann@Example.COM", "demo://Host/x",
            "file:///C:/notes.txt", "demo://h/%25ZZ", "demo://h/a%3Bb"})
    void aUriEveryParserReadsAlikeIsCanonical(String uri) {
        assertThat(CanonicalUri.refusal(uri)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/dynamic/../static/document/architecture.md",
            "demo://resource/dynamic/./text/1", "demo://resource/dynamic/..", "demo://resource/dynamic/..;x/static",
            "demo:a/../b", "demo:..", "file:///srv/../etc/passwd?x"})
    void aDotSegmentIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("'..'"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/dynamic/%2e%2e/static/x", "demo://resource/dynamic/%2E%2E/static/x",
            "demo://resource/dynamic/.%2e/x", "demo://resource/%41", "demo://resource/a?%7E", "demo://%68ost/x"})
    void aPercentEncodedUnreservedCharacterIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("unreserved"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/dynamic/..%2Fstatic/x", "demo://resource/dynamic%2F..%2Fstatic",
            "demo://resource/dynamic/..%5Cstatic/x"})
    void anEncodedSlashOrBackslashBeforeTheQueryIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("%2F"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/dynamic/%252e%252e/static/x", "demo://h/%2541"})
    void doubleEncodingIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("double"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://h/%2f", "demo://h/%c3%a9", "demo://h/%", "demo://h/%2", "demo://h/%G1"})
    void aPercentSignNotFollowedByTwoUpperCaseHexDigitsIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("hex"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo://resource/dynamic/..\\static/x", "demo://h/a b", "demo://h/.\t./x",
            "demo://h/x\n", "demo://h/é", "demo://h/{x}", "demo://h/a\u0000"})
    void aCharacterOutsideRfc3986IsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("RFC 3986"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DEMO://h/x", "Demo://h/x", "", " demo://h/x", "//h/x", "/a/b", "a/../b", "1demo://h/x"})
    void aMissingOrUpperCaseSchemeIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("scheme"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTPS://example.com/", "https://Example.com/a", "file://LOCALHOST/x", "file://localhost/etc",
            "http://example.com:80/a", "https://example.com:443/a", "https://example.com:/a", "https://example.com"})
    void aWebSchemesHostAndPortAreInTheFormItsParsersLeaveThem(String uri) {
        assertThat(CanonicalUri.refusal(uri)).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://10.0.0.255:8080/a", "http://0.0.0.0/", "http://[::1]/",
            "http://[2001:db8::1]:8443/x", "http://[1:0:0:1::1]/", "http://[::]/", "http://[1:2:3:4:5:6:7:8]/",
            "http://[1::2:0:0:3]/", "https://a-b_c.example.com/", "http://1.2.3.example/", "http://0x.example/",
            "ws://h:65535/", "file:///srv/x"})
    void aWebHostWrittenAsItsParsersLeaveItIsCanonical(String uri) {
        assertThat(CanonicalUri.refusal(uri)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://inter%C2%ADnal.example.com/", "https://%EF%BD%81.example/", "http://a%2Cb/", "http://a%21b/",
            "http://[fe80::1%25eth0]/"})
    void aPercentEncodingInAWebHostIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("host"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://allowed.example@evil/", "http://user:pass@host/", "http://@host/",
            "file://a@b/x"})
    void userinfoInAWebUrlIsRefused(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("userinfo"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://127.0.0.01/",
            "http://0177.0.0.1/", "http://1.2.3.4.5/", "http://256.0.0.1/", "http://a.0x7f/", "http://a.0x/",
            "http://1.2.3.4x.5/"})
    void aHostEndingInANumberMustBeFourDecimalOctets(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("IPv4"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://[0:0:0:0:0:0:0:1]/", "http://[::0001]/", "http://[::ffff:127.0.0.1]/",
            "http://[1::1:0:0:0:1]/", "http://[1:0::1]/", "http://[::1:2:3:4:5:6:7]/", "http://[1:2:3:4:5:6:7:8:9]/",
            "http://[1:::2]/", "http://[::1/", "http://[::1]x/", "http://[v1.x]/", "http://[]/", "http://[12345::]/"})
    void anIpv6AddressMustBeInItsCanonicalForm(String uri) {
        assertThat(CanonicalUri.refusal(uri)).hasValueSatisfying(r -> assertThat(r).contains("IPv6"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com./", "http://.example.com/", "http://a..b/", "http:///x",
            "http:example.com/", "file:/srv/x", "http://a.example:8x/", "http://a.example:99999/", "file://h:8/x",
            "http://a!b/", "http://a~b/"})
    void aWebUrlMustHaveAHostOfPlainLabelsAndADecimalPort(String uri) {
        assertThat(CanonicalUri.refusal(uri)).isPresent();
    }

    @Test
    void aLongUriIsJudgedInOnePass() {
        assertThat(CanonicalUri.refusal("demo://h/" + "%25".repeat(300_000) + "/..")).isPresent();
        assertThat(CanonicalUri.refusal("demo://h/" + "a/".repeat(300_000))).isEmpty();
    }
}
