package dev.warden.audit;

import dev.warden.audit.canary.CanaryJudge;
import dev.warden.audit.canary.LoopbackListener;
import dev.warden.audit.internal.ContentProbes;
import dev.warden.audit.internal.LeakScan;
import dev.warden.client.http.Loopback;
import dev.warden.audit.internal.Pacer;
import dev.warden.audit.internal.Probe;
import dev.warden.audit.internal.ProbeGenerator;
import dev.warden.audit.internal.RawFrames;
import dev.warden.audit.internal.ToolNames;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Sanitizer;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run of an {@link Audit}: connect, list (within {@link Lister}'s bounds), run the checks, and
 * (unless a dry run) send the probes in order, each tool's planned as the budget reaches it: unknown tool, resource and prompt;
 * reads of the listed resources, templates and prompts ({@link ContentProbes}); each tool's schema probes; the paired login
 * probes; the cancellation of a slow call; malformed JSON-RPC (a connection the audit writes frames
 * on itself, or over HTTP raw POSTs on a session of their own); then read the server's stderr. A
 * server that stops is reported (with its exit status), started again and probed on, at most
 * {@link Audit#maxRelaunches()} times; the rest of the probes of the tool that stopped it are not
 * sent. Stops when the budget is spent, the relaunches are used up, or an HTTP server stopped
 * answering.
 */
final class AuditRun {

    private final Audit audit;
    /** How every marker starts (and so every over-long value, which begins with the marker). */
    static final String MARKER_PREFIX = "wdnprobe-";

    private final String marker;
    private final Pacer pacer;
    private final Line line;
    private final FindingSet findings = new FindingSet();
    private final LeakScan scan = new LeakScan(Sanitizer.ofDefaults());
    private final Judge judge = new Judge(scan, findings);
    /** Instructions and personal data in what the model reads (issue 35). */
    private final ContentFindings content = new ContentFindings(scan, findings);
    private final ProbeGenerator generator;
    /** What each hostile probe provoked; its loopback listener is the URL canaries' target. */
    private final CanaryJudge canaries;
    /** Evidence fingerprints are keyed with it (HMAC), drawn for this run and never written. */
    private final FingerprintKey key = FingerprintKey.random();
    private final List<String> skipped = new ArrayList<>();
    /** Every string value sent, for reading stderr: the server may log what it was given. */
    private final List<String> sent = new ArrayList<>();
    /** What the server listed; empty until connected. */
    private Listing listing = new Listing();
    private boolean halted;
    private int relaunches;
    /** Tools whose call stopped the server: the rest of their probes are not sent (one stop is enough). */
    private final Set<String> stoppers = new HashSet<>();
    /** The listed tools that may be called (all, with --allow-destructive). */
    private List<JsonNode> callable = List.of();
    /** The tools at least one probe was sent to. */
    private final Set<String> probed = new HashSet<>();
    /** How long the current tool's valid call took: what its long-input probe is compared with. */
    private Duration baseline = Duration.ZERO;

    AuditRun(Audit audit) {
        this.audit = audit;
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        this.marker = MARKER_PREFIX + HexFormat.of().formatHex(random);
        this.pacer = new Pacer(audit.budget(), audit.rate(), audit.clock(), d -> audit.sleeper().sleep(d));
        this.line = new Line(pacer, audit.clock(), audit.callTimeout(), audit.maxCallTime());
        LoopbackListener listener = new LoopbackListener();
        this.canaries = new CanaryJudge(listener);
        // A dry run binds no port: its plan shows the URL canaries with port 0.
        // A remote server asked to fetch 127.0.0.1 fetches its own loopback, which the listener never
        // sees: a URL canary there could never confirm anything, so it is planted only on this machine.
        boolean local = !(audit.target() instanceof Target.Http http) || Loopback.of(http.endpoint());
        this.generator = new ProbeGenerator(marker, audit.dryRun() ? token -> "http://127.0.0.1:0/" + token
                : listener::url, local);
    }

    Report run() {
        return key.during(this::keyedRun);
    }

    private Report keyedRun() {
        Instant started = audit.clock().instant();
        try (line; canaries) {
            connect();
            runChecks();
            if (audit.dryRun()) {
                planLines().forEach(p -> skipped.add("dry run: " + p));
                sideProbePlan().forEach(p -> skipped.add("dry run: " + p));
            } else {
                generator.unknowns(listing.offersResources, listing.offersPrompts).forEach(this::probe);
                reads().forEach(this::probe);
                probeTools();
                SideProbes side = new SideProbes(line, judge, generator, marker, audit.callTimeout(), skipped);
                if (!halted && !side.logins(callable, sent)) {
                    restartOrHalt("the paired login probes");
                }
                if (!halted && !side.cancellation(callable)) {
                    restartOrHalt("the cancellation probe");
                }
                if (!halted && audit.target() instanceof Target.Http http && line.transport() == TransportUsed.STREAMABLE_HTTP) {
                    halted = !new HttpFrames(line, judge, marker, audit.callTimeout(), skipped).run(http);
                } else if (!halted && !side.rawFrames()) {
                    restartOrHalt("the malformed JSON-RPC frames");
                }
                if (!halted && audit.callers().size() == 2) {
                    new CrossCallers(audit, pacer, findings, skipped, generator).run(callable);
                }
                if (halted && pacer.used() >= pacer.budget()) {
                    skipped.add("budget: stopped after " + pacer.used() + " requests (budget " + pacer.budget() + ")");
                }
            }
            readStderr();
        }
        return new Report(audit.target().describe(), line.transport(), listing.server, findings.all(), pacer.used(),
                skipped, coverage(), started, Duration.between(started, audit.clock().instant()));
    }

    /** The calls a run would make, in words, without making any (the server is connected and listed). */
    List<String> planOnly() {
        try (line; canaries) {
            connect();
            List<String> lines = new ArrayList<>(planLines());
            lines.addAll(sideProbePlan());
            return lines;
        }
    }

    /**
     * Each callable tool's probes, planned only when the budget has room for one more request and
     * sent before the next tool's are planned: what is held at once is one tool's probes, however
     * many tools the server lists.
     */
    private void probeTools() {
        for (JsonNode tool : callable) {
            if (halted || !pacer.has(1)) {
                return;
            }
            generator.forTool(tool).forEach(this::probe);
        }
    }

    /** The lines of the probes a run would send, as far as the budget left reaches. */
    private List<String> planLines() {
        int room = pacer.budget() - pacer.used();
        List<String> lines = new ArrayList<>();
        for (Probe p : generator.unknowns(listing.offersResources, listing.offersPrompts)) {
            if (lines.size() < room) {
                lines.add(p.line());
            }
        }
        for (Probe p : reads()) {
            if (lines.size() < room) {
                lines.add(p.line());
            }
        }
        int planned = 0;
        for (JsonNode tool : callable) {
            if (lines.size() >= room) {
                skipped.add("budget: the plan stops at the budget (" + pacer.budget() + " requests); "
                        + (callable.size() - planned) + " of " + callable.size() + " tools not reached");
                break;
            }
            planned++;
            for (Probe p : generator.forTool(tool)) {
                if (lines.size() < room) {
                    lines.add(p.line());
                }
            }
        }
        return lines;
    }

    /** How many listed tools were probed, how the listing ended, and why the others were not. */
    private Coverage coverage() {
        List<String> why = new ArrayList<>();
        int destructive = listing.tools.size() - callable.size();
        if (destructive > 0) {
            why.add(destructive + " may change something, not called (--allow-destructive)");
        }
        int unreached = callable.size() - probed.size();
        if (unreached > 0) {
            why.add(unreached + " not reached: " + (audit.dryRun() ? "a dry run calls nothing"
                    : pacer.used() >= pacer.budget() ? "the budget (" + pacer.budget() + " requests) was spent"
                    : halted ? "the server stopped answering" : "their probes were not sent"));
        }
        return new Coverage(listing.tools.size(), probed.size(), listing.toolsEnd, why);
    }

    private void connect() {
        listing = Listing.connect(audit, line, pacer, findings, content, skipped);
        callable = listing.callable;
        canaries.tools(listing.tools);
    }

    private void runChecks() {
        AuditContext context = new AuditContext(audit.target(), listing.server, listing.instructions, listing.tools,
                listing.resources, listing.prompts, audit.dryRun());
        for (AuditCheck check : audit.checks()) {
            try {
                check.check(context).forEach(findings::add);
            } catch (RuntimeException e) {
                skipped.add("check " + check.name() + " failed (" + e.getClass().getSimpleName() + ")");
            }
        }
    }

    private List<String> sideProbePlan() {
        List<String> lines = new ArrayList<>();
        for (JsonNode tool : callable) {
            String name = tool.path("name").asString("");
            if (ToolNames.login(tool).isPresent()) {
                lines.add("tools/call " + name + ": " + SideProbes.LOGIN_PAIRS + " unknown-account and "
                        + SideProbes.LOGIN_PAIRS + " wrong-password calls, compared");
            }
        }
        callable.stream().filter(ToolNames::slow).findFirst().ifPresent(tool -> lines.add("tools/call "
                + tool.path("name").asString("") + ": a long call, cancelled, then ping"));
        String raw = line.transport() == TransportUsed.STREAMABLE_HTTP ? "raw POST (a session of its own): " : "raw frame: ";
        RawFrames.of(marker).forEach(f -> lines.add(raw + f.what()));
        lines.add("ping: after the malformed frames");
        return lines;
    }

    /** The reads of the listed resources, templates and prompts: what else the model is given. */
    private List<Probe> reads() {
        return new ContentProbes(marker).of(listing.resources, listing.templates, listing.prompts);
    }

    private void probe(Probe probe) {
        if (halted) {
            return;
        }
        if (probe.tool().isPresent() && stoppers.contains(probe.tool().get()) && "tools/call".equals(probe.method())) {
            return; // said once, when it stopped the server
        }
        CallerInput caller = CallerInput.of(probe.params());
        // Only the hostile value itself (each carries the marker): the valid values beside it are the
        // caller's ordinary input, and a server that names them again reflects nothing hostile.
        List<String> hostile = probe.kind() != Probe.Kind.HOSTILE ? List.of()
                : strings(probe.params().path("arguments")).stream().filter(s -> s.contains(marker)).toList();
        remember(probe.params());
        canaries.sent(probe.tool(), probe.description(), probe.canary());
        Line.Outcome outcome = line.call(probe);
        if (!(outcome instanceof Line.Outcome.OverBudget) && "tools/call".equals(probe.method())) {
            probe.tool().ifPresent(probed::add);
        }
        switch (outcome) {
            case Line.Outcome.OverBudget o -> halted = true;
            case Line.Outcome.TimedOut t -> unanswered(probe, t);
            case Line.Outcome.Closed c -> {
                Optional<Integer> status = line.exitStatus();
                if (status.isPresent()) {
                    findings.add(Rule.UNANSWERED, probe.tool(), probe.description(), "/", "The server exited (exit status "
                            + status.get() + ") before answering: this call ended the server process");
                } else {
                    judge.stopped(probe.tool(), probe.description());
                }
                probe.tool().filter(stoppers::add).ifPresent(tool -> skipped.add(tool
                        + ": the rest of its probes were not sent, a call to it stopped the server"));
                restartOrHalt(probe.line());
            }
            case Line.Outcome.Answered a -> {
                judge.leaks(a.message(), probe.tool(), probe.description(), caller, hostile);
                if (probe.kind() == Probe.Kind.VALID) {
                    judge.published(a.message(), caller);
                    List<String> args = strings(probe.params().path("arguments"));
                    probe.tool().ifPresent(tool -> canaries.baseline(tool, a.message(), args));
                } else if (probe.kind() == Probe.Kind.HOSTILE || probe.kind() == Probe.Kind.CANARY) {
                    judge.verdicts(canaries.answered(probe.tool(), probe.description(), probe.canary(), a.message(),
                            strings(probe.params().path("arguments"))));
                }
                judge.shape(probe, a.message());
                content.answer(a.message(), probe.tool(), probe.description(), caller);
                timing(probe, a.took());
            }
        }
        for (ObjectNode notification : line.wire().drainNotifications()) {
            judge.notification(notification, probe.tool(), probe.description(), caller);
        }
        for (String frame : line.wire().drainUnreadable()) {
            judge.text(frame, "frame", probe.tool(), probe.description(), caller);
        }
    }

    /**
     * A call with no answer in time: within the call timeout, or, when it reported progress, within
     * the maximum call time (a slow tool that says it is working is given that long).
     */
    private void unanswered(Probe probe, Line.Outcome.TimedOut t) {
        if (t.progress() > 0 && t.pastTotal()) {
            findings.add(Rule.UNANSWERED, probe.tool(), probe.description(), "/", "No answer within "
                    + audit.maxCallTime().toMillis() + " ms (the maximum call time), though it reported progress "
                    + t.progress() + " time(s)");
        } else {
            judge.unanswered(probe.tool(), probe.description(), audit.callTimeout());
        }
    }

    /**
     * The server stopped after {@code after}: start it again and go on, unless it is an HTTP server
     * (not ours to start), the relaunches are used up, the budget is spent, or it will not start.
     */
    private void restartOrHalt(String after) {
        if (pacer.used() >= pacer.budget() || !line.stopped()) {
            halted = true;
            return;
        }
        if (audit.target() instanceof Target.Http) {
            skipped.add("the server stopped answering after: " + after + "; the rest was not sent");
            halted = true;
        } else if (relaunches >= audit.maxRelaunches()) {
            skipped.add("relaunch: the server stopped again after: " + after + "; it was started again "
                    + relaunches + " time(s), the most an audit does (" + audit.maxRelaunches()
                    + "), so the rest was not sent");
            halted = true;
        } else if (line.relaunch(audit.target())) {
            relaunches++;
            skipped.add("relaunch " + relaunches + ": the server stopped after: " + after
                    + "; started again, probing went on");
        } else {
            skipped.add("relaunch: the server stopped after: " + after
                    + "; it could not be started again (or the budget was spent), so the rest was not sent");
            halted = true;
        }
    }

    /** SLOW_ON_LONG_INPUT: an over-long argument at least 20 times (and 1 s) slower than the tool's baseline. */
    private void timing(Probe probe, Duration took) {
        if (probe.kind() == Probe.Kind.VALID) {
            baseline = took;
        } else if (probe.kind() == Probe.Kind.LONG_STRING && took.compareTo(Duration.ofSeconds(1)) >= 0
                && took.toMillis() >= 20 * Math.max(1, baseline.toMillis())) {
            findings.add(Rule.SLOW_ON_LONG_INPUT, probe.tool(), probe.description(), "/",
                    "The call took " + took.toMillis() + " ms; with short arguments " + baseline.toMillis() + " ms");
        }
    }

    private void readStderr() {
        List<String> lines = line.stderr();
        judge.verdicts(canaries.finish(lines));
        if (!lines.isEmpty()) {
            CallerInput caller = CallerInput.ofStrings(sent.stream().limit(60).toList())
                    .and(List.of(marker));
            judge.stderr(String.join("\n", lines), Optional.empty(), "everything the audit sent", caller);
            content.stderr(String.join("\n", lines), "everything the audit sent", caller);
        }
    }

    private void remember(JsonNode params) {
        for (String s : strings(params.path("arguments"))) {
            if (s.length() <= 4096 && !sent.contains(s) && sent.size() < 200) {
                sent.add(s);
            }
        }
    }

    static List<String> strings(JsonNode node) {
        return JsonStrings.of(node, 101, 200);
    }

}
