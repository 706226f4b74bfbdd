package dev.warden.audit.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The fixed parts of the HTML report: its style, its one script, and the Content-Security-Policy
 * that allows that script by its hash and nothing else: no other script, no request of any kind
 * (default-src 'none'), so the page is self-contained by rule, not only by care, and text that
 * escaped escaping still could not run or fetch.
 */
final class HtmlPage {

    static final String STYLE = """
            :root{--high:#b3261e;--medium:#b26a00;--low:#2f6db5;--note:#5f6368;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
            body{margin:0;padding:24px 32px}
            header{display:flex;gap:32px;align-items:center;border-bottom:1px solid #d0d7de;padding-bottom:16px}
            h1{font-size:22px;margin:0 0 6px}
            .meta{margin:2px 0;color:#57606a;font-size:14px;word-break:break-all}
            .grade{text-align:center;min-width:110px;border-radius:10px;padding:8px 16px;color:#fff;background:#1a7f37}
            .grade .letter{font-size:48px;font-weight:700;line-height:1}
            .grade .score{font-size:14px}
            .grade.C,.grade.D{background:#b26a00}.grade.F{background:#b3261e}.grade.B{background:#4d8f2f}.grade.incomplete{background:#5f6368}
            .grade a{color:#fff}
            .counts{display:flex;gap:12px;margin:16px 0 8px;flex-wrap:wrap}
            .counts label{border:1px solid #d0d7de;border-radius:16px;padding:4px 12px;font-size:14px;cursor:pointer}
            .sev{display:inline-block;border-radius:10px;padding:1px 8px;color:#fff;font-size:12px;font-weight:600}
            .sev.HIGH{background:var(--high)}.sev.MEDIUM{background:var(--medium)}.sev.LOW{background:var(--low)}.sev.NOTE{background:var(--note)}
            #shown{color:#57606a;font-size:13px;margin:4px 0 12px}
            table{border-collapse:collapse;width:100%;font-size:13px}
            th,td{border-bottom:1px solid #d0d7de;padding:6px 8px;text-align:left;vertical-align:top}
            th{background:#f6f8fa;position:sticky;top:0}
            td code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:break-word}
            td.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;white-space:nowrap}
            td.fix{color:#57606a;max-width:280px}
            .empty{font-size:16px;color:#1a7f37;margin:24px 0}
            footer{margin-top:24px;border-top:1px solid #d0d7de;padding-top:8px;color:#57606a;font-size:12px}
            """;

    /** Shows only the checked severities and says how many rows that leaves. */
    static final String SCRIPT = """
            (function () {
              var boxes = document.querySelectorAll('input[data-severity]');
              var rows = document.querySelectorAll('#findings tbody tr');
              function apply() {
                var on = {};
                boxes.forEach(function (b) { on[b.getAttribute('data-severity')] = b.checked; });
                var shown = 0;
                rows.forEach(function (r) {
                  var visible = on[r.getAttribute('data-severity')] !== false;
                  r.hidden = !visible;
                  if (visible) { shown++; }
                });
                document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' findings shown';
              }
              boxes.forEach(function (b) { b.addEventListener('change', apply); });
              apply();
            })();
            """;

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src '"
            + sha256(SCRIPT) + "'; base-uri 'none'; form-action 'none'";

    private HtmlPage() {
    }

    private static String sha256(String script) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
