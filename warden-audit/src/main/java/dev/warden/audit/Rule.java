package dev.warden.audit;

/**
 * What the auditor reports, each with a stable id (SARIF's {@code ruleId}; never renumbered), a
 * severity, the CWE it is an instance of, and what to do about it.
 */
public enum Rule {
    // What comes back: the sanitizer's detectors over every byte of an answer.
    LEAK_STACK_TRACE("WDN-L001", Severity.HIGH, 209, "A failure shows a stack trace",
            "Catch failures at the tool boundary; send a fixed message and a reference, log the trace."),
    LEAK_SECRET("WDN-L002", Severity.HIGH, 200, "A failure or result shows a credential",
            "Never put credentials in messages; redact them before any text leaves the server."),
    LEAK_PATH("WDN-L003", Severity.MEDIUM, 209, "A failure shows a server file path",
            "Report paths relative to what the caller asked for; keep absolute server paths in logs."),
    LEAK_DATABASE("WDN-L004", Severity.MEDIUM, 209, "A failure shows SQL, schema or driver details",
            "Map database errors to codes (by SQLSTATE); keep statements and schema names in logs."),
    LEAK_TOPOLOGY("WDN-L005", Severity.MEDIUM, 200, "A failure shows internal hosts or addresses",
            "Name upstream services by role, not by host; keep addresses in logs."),
    LEAK_INJECTION("WDN-L006", Severity.MEDIUM, 74, "A failure carries instructions aimed at the model",
            "Never pass third-party text to the model as an error message without sanitizing it."),
    REFLECTED_INPUT("WDN-L007", Severity.LOW, 74, "A failure repeats the caller's hostile input verbatim",
            "Quote what the caller sent only where it helps fix the call, and escape it."),
    USER_ENUMERATION("WDN-L008", Severity.MEDIUM, 203, "Answers tell an unknown account from a wrong password",
            "Answer both the same way, in the same time."),
    // A stdio server's stderr goes to the host's logs, not to the model. Traces, paths and hosts are
    // what an operator's log is for (CWE-532 is about what a log's readers should not see): a note;
    // a credential has no place in any log.
    LEAK_TO_STDERR("WDN-L100", Severity.LOW, 532, "The server's stderr shows a credential",
            "Log failures without credentials: mask passwords, tokens and keys before writing them."),
    DETAIL_ON_STDERR("WDN-L101", Severity.NOTE, 532, "The server's stderr shows internal details",
            "Expected in an operator's log; make sure the host keeps the server's stderr from the model."),
    // How failures are shaped.
    TOOL_ERROR_AS_PROTOCOL_ERROR("WDN-S001", Severity.MEDIUM, 755,
            "A tool's failure comes back as a JSON-RPC error instead of an isError result",
            "Return tool failures as CallToolResult with isError: true, so the model can correct its call."),
    PROTOCOL_ERROR_AS_TOOL_ERROR("WDN-S002", Severity.LOW, 755,
            "A protocol error (unknown tool, malformed request) comes back as an isError result",
            "Answer protocol errors with JSON-RPC errors (-32602 for an unknown tool)."),
    NO_MACHINE_CODE("WDN-S003", Severity.LOW, 755, "A failure has no machine-readable code or retry hint",
            "Give each failure a symbolic code and, where retrying helps, retryable and retryAfterMs."),
    LEGACY_ERROR_CODE("WDN-S004", Severity.LOW, 755, "A JSON-RPC error uses a code outside the spec's",
            "Use -32700, -32600..-32603 and the codes the MCP version defines; put your own in error.data."),
    UNANSWERED("WDN-S005", Severity.HIGH, 248, "A request got no answer, or the server stopped",
            "Answer every request exactly once, with its own id, whatever it holds."),
    WORKS_AFTER_CANCEL("WDN-S006", Severity.LOW, 404, "A cancelled call is still answered or keeps working",
            "Stop the work on notifications/cancelled and send no answer for it."),
    SLOW_ON_LONG_INPUT("WDN-S007", Severity.MEDIUM, 1333, "An over-long argument makes a call disproportionately slow",
            "Bound argument sizes in the input schema; use linear-time matching on untrusted text."),
    UNKNOWN_TOOL_WRONG_CODE("WDN-S008", Severity.LOW, 755,
            "A call to an unknown tool is answered as a server failure",
            "Answer a call naming no tool the server has with -32602 (Invalid params), as the spec's example does."),
    // Over HTTP.
    HTTP_NO_ORIGIN_CHECK("WDN-H001", Severity.HIGH, 346, "A foreign Origin or Host is served (DNS rebinding)",
            "Refuse requests whose Origin or Host is not an expected one (403)."),
    HTTP_GUESSABLE_SESSION("WDN-H002", Severity.MEDIUM, 330, "Session ids are short or predictable",
            "Make session ids at least 128 bits from a secure random source."),
    HTTP_401_WITHOUT_METADATA("WDN-H003", Severity.LOW, 287, "A 401 does not point to protected-resource metadata",
            "Answer 401 with WWW-Authenticate: Bearer resource_metadata=\"…\" (RFC 9728)."),
    HTTP_VERSION_BANNER("WDN-H004", Severity.LOW, 200, "Response headers name the server's product or version",
            "Drop Server and X-Powered-By version headers."),
    // Tool definitions.
    TOOL_POISONING("WDN-D001", Severity.HIGH, 74, "A definition carries instructions aimed at the model",
            "Descriptions say what a tool does; they never instruct the model to do anything else."),
    HIDDEN_UNICODE("WDN-D002", Severity.MEDIUM, 1007, "A definition holds invisible or direction-changing characters",
            "Remove zero-width, bidirectional-control and tag characters from names and descriptions."),
    NAME_SHADOWING("WDN-D003", Severity.LOW, 694, "A tool's name shadows a well-known tool of another server",
            "Give tools names that say which server they belong to."),
    DESTRUCTIVE_WITHOUT_ANNOTATION("WDN-D004", Severity.LOW, 1188,
            "A tool that writes, deletes, sends or pays declares no destructiveHint",
            "Annotate tools with readOnlyHint / destructiveHint so clients can ask before calling them."),
    DEFINITION_CHANGED("WDN-D005", Severity.HIGH, 494, "A definition changed since it was pinned",
            "Review the change; pin the new definitions only once it is understood."),
    DEFINITION_REMOVED("WDN-D006", Severity.NOTE, 494, "A pinned definition is no longer listed",
            "Confirm the removal was intended, then pin the current definitions."),
    // Listings (declared last: a rule's ordinal is its SARIF ruleIndex, never renumbered). A client
    // that follows cursors never stops on a loop; a listing longer than the audit reads is no
    // defect, but what was not read was neither checked nor probed.
    PAGINATION_LOOP("WDN-S009", Severity.HIGH, 835, "A listing's pages never end",
            "Give a nextCursor only when more items follow, never one given before, and never with an empty page."),
    LISTING_CUT("WDN-S010", Severity.NOTE, 770, "A listing is longer than the audit reads",
            "Audit the rest with a larger --budget, or split the tools across servers: a model chooses poorly among thousands."),
    // What a probe provoked (issue 35), confirmed by a harmless canary: declared after the
    // listings, so no earlier rule's SARIF ruleIndex moves.
    COMMAND_INJECTION("WDN-X001", Severity.HIGH, 78, "A probe's shell command ran on the server",
            "Start programs with an argument array (execFile, ProcessBuilder), never through a shell."),
    PATH_TRAVERSAL("WDN-X002", Severity.HIGH, 22, "A probe's path reached outside the folder the tool serves",
            "Resolve the path (and its links), then refuse it unless it stays under the allowed root."),
    SERVER_SIDE_REQUEST("WDN-X003", Severity.HIGH, 918, "A probe's URL made the server fetch from an address the caller chose",
            "Fetch only allow-listed hosts; refuse loopback, private and link-local addresses after resolving them."),
    SQL_INJECTION("WDN-X004", Severity.HIGH, 89, "A probe's value reached SQL as code",
            "Bind values as parameters; never build SQL by joining strings with arguments."),
    CROSS_CALLER_ACCESS("WDN-X005", Severity.HIGH, 639, "One caller reaches another caller's record by its identifier",
            "On every call, check that the caller may see the record the identifier names."),
    INSTRUCTIONS_IN_CONTENT("WDN-L009", Severity.MEDIUM, 74,
            "A result, resource or prompt carries instructions aimed at the model",
            "Pass third-party text to the model as quoted data: strip or mark instructions before returning it."),
    PERSONAL_DATA("WDN-L010", Severity.LOW, 359, "An answer shows personal data (email, phone, card or national id)",
            "Return personal data only to callers entitled to it, and only the fields the call needs."),
    PERSONAL_DATA_ON_STDERR("WDN-L102", Severity.LOW, 532, "The server's stderr shows personal data",
            "Mask emails, phone numbers, card and national ids before logging them."),
    LOOKALIKE_NAME("WDN-D007", Severity.LOW, 451, "A server or tool name imitates a well-known one",
            "Choose a name that cannot be mistaken for a well-known server's or tool's."),
    LEGACY_TRANSPORT("WDN-H005", Severity.NOTE, 477, "The server speaks only the older HTTP+SSE transport (2024-11-05)",
            "Serve Streamable HTTP (2025-03-26 and later) at one endpoint; keep the SSE endpoint for old clients only."),
    // A capability, not a flaw in the code: CWE-749 (an exposed dangerous method) names a tool
    // that hands its callers a shell or raw SQL; 77/89 would say a value escaped, and it did not.
    CALLER_CODE_BY_DESIGN("WDN-X006", Severity.NOTE, 749, "A tool runs the SQL or commands its caller writes",
            "Expose narrow tools instead (one per query or command); otherwise run it only for trusted callers, "
                    + "with the least privilege it needs (a read-only database user, a sandboxed account).");

    private final String id;
    private final Severity severity;
    private final int cwe;
    private final String title;
    private final String remediation;

    Rule(String id, Severity severity, int cwe, String title, String remediation) {
        this.id = id;
        this.severity = severity;
        this.cwe = cwe;
        this.title = title;
        this.remediation = remediation;
    }

    /** The stable id, such as {@code WDN-L001}. */
    public String id() {
        return id;
    }

    public Severity severity() {
        return severity;
    }

    /** The CWE number, such as 209. */
    public int cwe() {
        return cwe;
    }

    public String title() {
        return title;
    }

    public String remediation() {
        return remediation;
    }
}
