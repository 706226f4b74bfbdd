package dev.warden.core.sanitize.pii;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PiiDetectorTest {

    private static List<String> kinds(String text) {
        List<Finding> out = new ArrayList<>();
        new PiiDetector().scan(text, out);
        return out.stream().map(f -> f.kind() + ":" + text.substring(f.start(), f.end())).toList();
    }

    @Test
    void findsEmailsCardNumbersSsnsAndPhoneNumbers() {
        assertThat(kinds("Contact grace.hopper+navy@example.co.uk.")).containsExactly("email:grace.hopper+navy@example.co.uk");
        assertThat(kinds("card 4111 1111 1111 1111 declined")).containsExactly("card-number:4111 1111 1111 1111");
        assertThat(kinds("card 5500-0000-0000-0004")).containsExactly("card-number:5500-0000-0000-0004");
        assertThat(kinds("SSN 123-45-6789 on file")).containsExactly("ssn:123-45-6789");
        assertThat(kinds("call +1 (415) 555-0134 now")).containsExactly("phone:+1 (415) 555-0134");
    }

    @Test
    void leavesNumbersThatAreNotPersonalData() {
        assertThat(kinds("version 1.2.3 built 2026-11-22 12:30, order 12345 of 67890")).isEmpty();
        assertThat(kinds("at 1732280000000 ms")).isEmpty(); // a timestamp, whatever its Luhn sum
        assertThat(kinds("4111 1111 1111 1112")).isEmpty(); // fails the Luhn check
        assertThat(kinds("sha 41111111111111114111111111111111abc")).isEmpty();
        assertThat(kinds("user@localhost and @handle and a@b")).isEmpty();
    }

    @Test
    void leavesARandomNumberThatEndsANameThoughItPassesLuhn() {
        // The audit twins' work folder, named by Files.createTempDirectory (a random long), in a failure:
        // 19 digits from 2 to 6 that pass Luhn, about one folder in thirty-three.
        String folder = "/tmp/warden-twin-java-6507958311186346947/srv/var/lib/acme/corpus/archive/2024/q3/reports";
        assertThat(kinds("Error: java.nio.file.NoSuchFileException: " + folder + "/example")).isEmpty();
        assertThat(kinds("ref_6507958311186346947 expired")).isEmpty();
        // The same digits standing alone, or after a label, are a card number still.
        assertThat(kinds("card 6507958311186346947")).containsExactly("card-number:6507958311186346947");
        assertThat(kinds("card:6507958311186346947")).containsExactly("card-number:6507958311186346947");
        assertThat(kinds("(6507-9583-1118-6346-947)")).containsExactly("card-number:6507-9583-1118-6346-947");
    }

    @Test
    void findsACardOfThirteenToSixteenDigitsThoughItIsGluedToALabel() {
        assertThat(kinds("cc-4111111111111111")).containsExactly("card-number:4111111111111111");
        assertThat(kinds("amex_378282246310005")).containsExactly("card-number:378282246310005");
        assertThat(kinds("diners_30569309025904")).containsExactly("card-number:30569309025904");
        assertThat(kinds("visa-4222222222222")).containsExactly("card-number:4222222222222");
    }

    @Test
    void findsAGroupedCardGluedToALabel() {
        assertThat(kinds("x-6507-9583-1118-6346-947")).containsExactly("card-number:6507-9583-1118-6346-947");
    }

    @Test
    void isOffByDefaultAndOnWhenAsked() {
        String text = "Ada's email is ada@example.com";
        assertThat(Sanitizer.ofDefaults().sanitize(text, Policy.REDACT).output()).isEqualTo(text);
        assertThat(Sanitizer.builder().pii().build().sanitize(text, Policy.REDACT).output())
                .isEqualTo("Ada's email is [redacted:email]");
    }

    @Test
    void manyAtSignsAndDigitsStayLinear() {
        // A hang guard for a quadratic scan, not a speed check.
        String hostile = "a@".repeat(200_000) + "1 ".repeat(200_000);
        assertThat(kinds(hostile)).isEmpty();
    }
}
