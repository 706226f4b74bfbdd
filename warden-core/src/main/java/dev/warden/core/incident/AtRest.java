package dev.warden.core.incident;

import dev.warden.core.sanitize.CredentialRedactor;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.CredentialFinding;
import dev.warden.core.sanitize.detection.Finding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An incident as Warden writes it anywhere (the store, a log): with credentials replaced by a
 * marker naming their kind. An operator needs to know that a password was in an upstream's error
 * and where, never the password itself; a file copied into a ticket or a backup then carries
 * none. Replaced: the spans the sanitizer found as secrets, and whatever the credential redactor
 * (provider tokens, JWTs, private keys, passwords in URLs) finds in the original and in the
 * exception messages. Everything else stays as it was (the design keeps the full detail for the
 * operator); the other findings are moved to keep pointing at their text.
 */
final class AtRest {

    private static final CredentialRedactor CREDENTIALS = CredentialRedactor.ofDefaults();
    private static final Sanitizer SANITIZER = Sanitizer.ofDefaults();

    private AtRest() {
    }

    private record Span(int start, int end, String marker) {
    }

    static Incident redacted(Incident incident) {
        List<Incident.ThrowableRecord> chain = new ArrayList<>(incident.chain().size());
        boolean chainChanged = false;
        for (Incident.ThrowableRecord record : incident.chain()) {
            if (record.message().isPresent()) {
                String message = record.message().get();
                String redacted = CREDENTIALS.redact(secretsRedacted(message)).text();
                if (!redacted.equals(message)) {
                    chainChanged = true;
                    record = new Incident.ThrowableRecord(record.type(), Optional.of(redacted), record.stack());
                }
            }
            chain.add(record);
        }
        if (incident.original().isEmpty() && !chainChanged) {
            return incident;
        }
        String original = incident.original().orElse("");
        List<Span> spans = new ArrayList<>();
        for (Finding f : incident.findings()) {
            if (f.category() == Category.SECRET && f.end() <= original.length() && f.end() > f.start()) {
                spans.add(new Span(f.start(), f.end(), "[redacted:" + f.kind() + "]"));
            }
        }
        for (CredentialFinding c : CREDENTIALS.redact(original).findings()) {
            spans.add(new Span(c.offset(), c.offset() + c.length(), c.kind().marker()));
        }
        if (spans.isEmpty()) {
            return chainChanged ? with(incident, incident.original(), incident.findings(), chain) : incident;
        }
        spans.sort(Comparator.comparingInt(Span::start).thenComparing(Comparator.comparingInt(Span::end).reversed()));
        List<Span> merged = new ArrayList<>();
        for (Span s : spans) {
            Span last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && s.start() < last.end()) {
                if (s.end() > last.end()) {
                    merged.set(merged.size() - 1, new Span(last.start(), s.end(), last.marker()));
                }
            } else {
                merged.add(s);
            }
        }
        StringBuilder out = new StringBuilder(original.length());
        int copied = 0;
        for (Span s : merged) {
            out.append(original, copied, s.start()).append(s.marker());
            copied = s.end();
        }
        out.append(original, copied, original.length());
        List<Finding> findings = new ArrayList<>(incident.findings().size());
        for (Finding f : incident.findings()) {
            int start = moved(f.start(), merged, false);
            int end = Math.max(start, moved(f.end(), merged, true));
            findings.add(new Finding(f.category(), f.kind(), start, end));
        }
        return with(incident, Optional.of(out.toString()), findings, chain);
    }

    /**
     * A message with the spans the sanitizer calls secrets replaced: the same judgement as for
     * what a peer sees, so that a password the redactor takes for a stand-in ({@code hunter2} in
     * a URL) is not kept in the log while the answer hides it. The sanitizer reads the message
     * as a peer would get it (control and invisible characters removed: {@link Sanitizer#clean});
     * when it finds a secret, that cleaned text is what is kept, without the secret.
     */
    private static String secretsRedacted(String message) {
        String cleaned = Sanitizer.clean(message);
        StringBuilder out = new StringBuilder(cleaned.length());
        int copied = 0;
        for (Finding f : SANITIZER.detect(cleaned).stream().filter(f -> f.category() == Category.SECRET)
                .sorted(Comparator.comparingInt(Finding::start)).toList()) {
            if (f.start() >= copied && f.end() > f.start() && f.end() <= cleaned.length()) {
                out.append(cleaned, copied, f.start()).append("[redacted:").append(f.kind()).append(']');
                copied = f.end();
            }
        }
        return copied == 0 ? message : out.append(cleaned, copied, cleaned.length()).toString();
    }

    /** Where a position of the original is in the redacted text: inside a replaced span, its marker's start (or end). */
    private static int moved(int position, List<Span> spans, boolean isEnd) {
        int shift = 0;
        for (Span s : spans) {
            if (position <= s.start()) {
                break;
            }
            if (position >= s.end()) {
                shift += s.marker().length() - (s.end() - s.start());
                continue;
            }
            return s.start() + shift + (isEnd ? s.marker().length() : 0);
        }
        return position + shift;
    }

    private static Incident with(Incident i, Optional<String> original, List<Finding> findings,
            List<Incident.ThrowableRecord> chain) {
        return new Incident(i.ref(), i.time(), i.code(), i.method(), i.tool(), i.upstream(), original, findings, chain,
                i.arguments(), i.reason(), i.subject(), i.clientId(), i.issuer(), i.kind());
    }
}
