package dev.warden.audit.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UntrustedTest {

    @Test
    void invisibleAndControlCharactersAreShownAsEscapes() {
        assertThat(Untrusted.printable("a\u200Bb\u202Ec\nd\u001b\uDB40\uDC41")).isEqualTo("a\\u200Bb\\u202Ec\\u000Ad\\u001B\\u{E0041}");
    }

    @Test
    void ordinaryTextIncludingOtherScriptsIsKept() {
        assertThat(Untrusted.printable("read_file café 読む 🙂")).isEqualTo("read_file café 読む 🙂");
    }

    @Test
    void aLongValueIsCutOffWithAnEllipsis() {
        assertThat(Untrusted.printable("x".repeat(1_000_000))).hasSize(Untrusted.MAX_SHOWN + 1).endsWith("x…");
    }

    @Test
    void htmlEscapesMarkupAndQuotes() {
        assertThat(Untrusted.html("<a href='x'>\"&\"</a>")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
    }
}
