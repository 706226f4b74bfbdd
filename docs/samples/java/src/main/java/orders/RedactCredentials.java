package orders;

import dev.warden.core.sanitize.CredentialRedactor;
import dev.warden.core.sanitize.Redaction;
import dev.warden.core.sanitize.detection.CredentialKind;

/** docs/design/sanitizer.md's CredentialRedactor, quoted between "doc:" and "end:". */
public final class RedactCredentials {

    static String redact(String text) {
        // doc:redactor
        CredentialRedactor redactor = CredentialRedactor.custom()
                .disable(CredentialKind.URL_PASSWORD)
                .build();
        Redaction r = redactor.redact(text);
        if (r.changed()) {
            return r.text();                  // each credential replaced by its kind's marker
        }
        // end:redactor
        return text;
    }

    public static void main(String[] args) {
        System.out.println(redact(String.join(" ", args)));
    }
}
