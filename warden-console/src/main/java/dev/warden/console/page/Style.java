package dev.warden.console.page;

/**
 * The console's one stylesheet, served at {@link #PATH} from the console itself: the
 * Content-Security-Policy allows styles from there only (no inline style, no inline script), and
 * the charts are coloured by their classes here.
 */
public final class Style {

    public static final String PATH = "/console.css";

    public static final String CSS = """
            :root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
            body{margin:0}
            header{display:flex;gap:24px;align-items:baseline;padding:12px 24px;border-bottom:1px solid #d0d7de;background:#f6f8fa}
            header .brand{font-weight:700;font-size:18px}
            header nav a{margin-right:16px;color:#0969da;text-decoration:none}
            header nav a.here{font-weight:700;color:#1f2328}
            header .now{margin-left:auto;color:#57606a;font-size:13px}
            header .sign-out{color:#0969da;font-size:13px;text-decoration:none}
            main form button{font:inherit;padding:6px 14px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;cursor:pointer}
            main{padding:16px 24px}
            h1{font-size:20px;margin:4px 0 12px}
            h2{font-size:16px;margin:20px 0 8px}
            table{border-collapse:collapse;width:100%;font-size:13px}
            th,td{border-bottom:1px solid #d0d7de;padding:5px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
            th{background:#f6f8fa;white-space:nowrap}
            td a{overflow-wrap:normal}
            .mono,td.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
            pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;background:#f6f8fa;border:1px solid #d0d7de;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere}
            .state{display:inline-block;border-radius:10px;padding:1px 8px;font-size:12px;font-weight:600;color:#fff;background:#5f6368}
            .state.CLOSED,.state.OK{background:#1a7f37}.state.OPEN{background:#b3261e}.state.HALF_OPEN{background:#b26a00}
            .muted{color:#57606a}
            .empty{color:#57606a;margin:12px 0}
            .cards{display:flex;flex-wrap:wrap;gap:16px}
            .card{border:1px solid #d0d7de;border-radius:8px;padding:10px 12px;width:584px}
            .card h2{margin:0 0 4px;font-size:15px;overflow-wrap:anywhere}
            .card .figures{font-size:13px;color:#57606a;margin-bottom:6px}
            svg.chart{display:block;background:#fff}
            svg.chart .axis{stroke:#d0d7de;stroke-width:1}
            svg.chart text{font-size:10px;fill:#57606a}
            svg.chart .ok{fill:#2da44e}
            svg.chart .err{fill:#cf222e}
            svg.chart .cancelled{fill:#8c959f}
            svg.chart .p50{fill:none;stroke:#0969da;stroke-width:1.5}
            svg.chart .p95{fill:none;stroke:#bf8700;stroke-width:1.5}
            svg.chart .dot.p50{fill:#0969da;stroke:none}
            svg.chart .dot.p95{fill:#bf8700;stroke:none}
            svg.chart .code-0,.swatch.code-0{fill:#cf222e;background:#cf222e}
            svg.chart .code-1,.swatch.code-1{fill:#8250df;background:#8250df}
            svg.chart .code-2,.swatch.code-2{fill:#bc4c00;background:#bc4c00}
            svg.chart .code-3,.swatch.code-3{fill:#d4a72c;background:#d4a72c}
            svg.chart .code-4,.swatch.code-4{fill:#0550ae;background:#0550ae}
            svg.chart .code-5,.swatch.code-5{fill:#953800;background:#953800}
            svg.chart .code-6,.swatch.code-6{fill:#a40e26;background:#a40e26}
            svg.chart .code-7,.swatch.code-7{fill:#6e7781;background:#6e7781}
            svg.chart .code-8,.swatch.code-8{fill:#82071e;background:#82071e}
            .legend span{display:inline-block;margin-right:12px;font-size:12px}
            .legend .swatch{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
            .swatch.ok{background:#2da44e}.swatch.err{background:#cf222e}.swatch.cancelled{background:#8c959f}
            .swatch.p50{background:#0969da}.swatch.p95{background:#bf8700}
            form.search{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin-bottom:12px}
            form.search label{display:flex;flex-direction:column;font-size:12px;color:#57606a}
            form.search input,form.search select{font-size:13px;padding:4px 6px}
            dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;font-size:13px}
            dl.fields dt{color:#57606a}
            dl.fields dd{margin:0;overflow-wrap:anywhere}
            footer{padding:8px 24px;color:#57606a;font-size:12px;border-top:1px solid #d0d7de}
            """;

    private Style() {
    }
}
