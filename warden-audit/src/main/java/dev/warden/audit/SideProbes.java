package dev.warden.audit;

import dev.warden.audit.internal.Probe;
import dev.warden.audit.internal.ProbeGenerator;
import dev.warden.audit.internal.RawFrames;
import dev.warden.audit.internal.ToolNames;
import dev.warden.audit.internal.Wire;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.session.OutgoingRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The probes that are more than one request: paired login calls (user enumeration), the
 * cancellation of a slow call, and malformed JSON-RPC written on the wire. Each returns false when
 * the audit must stop (budget spent, server stopped).
 */
final class SideProbes {

    static final int LOGIN_PAIRS = 5;
    /** How long a cancelled call is watched for a late answer, at most. */
    private static final Duration AFTER_CANCEL = Duration.ofSeconds(1);
    /** How long an unowed answer to a malformed frame is waited for. */
    private static final Duration RAW_GRACE = Duration.ofMillis(500);

    private final Line line;
    private final Judge judge;
    private final ProbeGenerator generator;
    private final String marker;
    private final Duration callTimeout;
    private final List<String> skipped;

    SideProbes(Line line, Judge judge, ProbeGenerator generator, String marker, Duration callTimeout,
               List<String> skipped) {
        this.line = line;
        this.judge = judge;
        this.generator = generator;
        this.marker = marker;
        this.callTimeout = callTimeout;
        this.skipped = skipped;
    }

    /**
     * USER_ENUMERATION: each login-like tool called {@value #LOGIN_PAIRS} times with an unknown account
     * and as many with a known-looking one and a wrong password. The answers are compared with the
     * marker, the account and anything holding a digit (refs, times) masked; the times by median, and
     * only a gross difference (5 times and 100 ms) counts.
     */
    boolean logins(List<JsonNode> tools, List<String> sent) {
        for (JsonNode tool : tools) {
            Optional<List<String>> fields = ToolNames.login(tool);
            if (fields.isEmpty()) {
                continue;
            }
            String name = tool.path("name").asString("");
            String user = fields.get().get(0);
            String password = fields.get().get(1);
            boolean email = user.toLowerCase().contains("mail")
                    || "email".equals(tool.path("inputSchema").path("properties").path(user).path("format").asString(""));
            String unknown = email ? marker + "-nobody@example.invalid" : marker + "-nobody";
            String known = email ? "admin@example.com" : "admin";
            Set<String> unknownAnswers = new HashSet<>();
            Set<String> knownAnswers = new HashSet<>();
            List<Long> unknownTimes = new ArrayList<>();
            List<Long> knownTimes = new ArrayList<>();
            for (int i = 0; i < LOGIN_PAIRS; i++) {
                for (boolean isKnown : new boolean[] {false, true}) {
                    ObjectNode args = generator.valid(tool.path("inputSchema"));
                    args.put(user, isKnown ? known : unknown);
                    args.put(password, marker + "-wrong");
                    Probe probe = generator.call(Probe.Kind.HOSTILE, name, "login with "
                            + (isKnown ? "a known-looking account and a wrong password" : "an unknown account"), args);
                    sent.addAll(List.of(unknown, marker + "-wrong"));
                    Line.Outcome outcome = line.call(probe);
                    if (!(outcome instanceof Line.Outcome.Answered a)) {
                        return handleUnanswered(outcome, probe);
                    }
                    judge.leaks(a.message(), probe.tool(), probe.description(), CallerInput.of(args), List.of());
                    String shape = mask(a.message(), List.of(marker, unknown, known));
                    (isKnown ? knownAnswers : unknownAnswers).add(shape);
                    (isKnown ? knownTimes : unknownTimes).add(a.took().toMillis());
                }
            }
            String probe = "unknown account vs known-looking account with a wrong password, " + LOGIN_PAIRS + " each";
            if (unknownAnswers.size() == 1 && knownAnswers.size() == 1 && !unknownAnswers.equals(knownAnswers)) {
                judge.findings().add(Rule.USER_ENUMERATION, Optional.of(name), probe, "/",
                        "An unknown account and a wrong password get different answers");
            }
            long u = median(unknownTimes);
            long k = median(knownTimes);
            long slow = Math.max(u, k);
            long fast = Math.min(u, k);
            if (slow - fast >= 100 && slow >= 5 * Math.max(1, fast)) {
                judge.findings().add(Rule.USER_ENUMERATION, Optional.of(name), probe, "timing",
                        "An unknown account is answered in " + u + " ms (median), a wrong password in " + k + " ms");
            }
        }
        return true;
    }

    /**
     * Cancels a call to the first tool that says it takes long, then watches for a late answer
     * (WORKS_AFTER_CANCEL) and pings (UNANSWERED if the server no longer answers).
     */
    boolean cancellation(List<JsonNode> tools) {
        Optional<JsonNode> slow = tools.stream().filter(ToolNames::slow).findFirst();
        if (slow.isEmpty()) {
            skipped.add("cancellation: no tool says it takes long (sleep, wait, long-running); not probed");
            return true;
        }
        String name = slow.get().path("name").asString("");
        Probe probe = generator.call(Probe.Kind.VALID, name, "a long call, cancelled once started",
                generator.slow(slow.get().path("inputSchema")));
        Optional<OutgoingRequest> started = line.start(probe);
        if (started.isEmpty()) {
            return false;
        }
        OutgoingRequest request = started.get();
        Wire wire = line.wire();
        String key = Wire.idKey(request.id().toJson());
        try {
            // Give the server a moment to start the work; an answer in that moment needs no cancel.
            request.get(300, TimeUnit.MILLISECONDS);
            skipped.add("cancellation: " + name + " answered before it could be cancelled");
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            request.cancel("warden audit: cancellation probe");
        } catch (Exception e) {
            skipped.add("cancellation: " + name + " failed before it could be cancelled");
            return true;
        }
        Duration watch = callTimeout.compareTo(AFTER_CANCEL) < 0 ? callTimeout : AFTER_CANCEL;
        if (wire.await(key, watch).isPresent()) {
            judge.findings().add(Rule.WORKS_AFTER_CANCEL, Optional.of(name), probe.description(), "/",
                    "The call was answered after notifications/cancelled");
        }
        Optional<Boolean> pong = line.ping();
        if (pong.isEmpty()) {
            return false;
        }
        if (!pong.get()) {
            judge.findings().add(Rule.UNANSWERED, Optional.of(name), "ping after cancelling a call", "/",
                    "The server no longer answers a ping after a call was cancelled");
            return false;
        }
        return true;
    }

    /**
     * Malformed JSON-RPC on the wire: each answer read for leaks and codes; a well-formed request
     * without an answer, or a server that stops answering a ping afterwards, is UNANSWERED.
     */
    boolean rawFrames() {
        for (RawFrames.Frame frame : RawFrames.of(marker)) {
            String probe = "malformed JSON-RPC: " + frame.what();
            if (!line.pacerTake()) {
                return false;
            }
            Wire wire = line.wire();
            frame.answerIds().forEach(wire::forget);
            if (!line.sendRaw(frame.text())) {
                skipped.add(probe + ": " + line.refusal());
                continue;
            }
            Optional<ObjectNode> answer = wire.awaitAny(frame.answerIds(), frame.answerOwed() ? callTimeout : RAW_GRACE);
            if (answer.isPresent()) {
                judge.leaks(answer.get(), Optional.empty(), probe, CallerInput.ofStrings(List.of(marker)), List.of());
                judge.legacyCode(answer.get(), Optional.empty(), probe);
            } else if (line.stopped()) {
                judge.stopped(Optional.empty(), probe);
                return false;
            } else if (frame.answerOwed()) {
                judge.unanswered(Optional.empty(), probe, callTimeout);
            }
            for (String text : wire.drainUnreadable()) {
                judge.text(text, "frame", Optional.empty(), probe, CallerInput.ofStrings(List.of(marker)));
            }
        }
        Optional<Boolean> pong = line.ping();
        if (pong.isPresent() && !pong.get()) {
            judge.findings().add(Rule.UNANSWERED, Optional.empty(), "ping after malformed JSON-RPC", "/",
                    "The server no longer answers a ping after malformed frames");
            return false;
        }
        return pong.isPresent();
    }

    private boolean handleUnanswered(Line.Outcome outcome, Probe probe) {
        switch (outcome) {
            case Line.Outcome.TimedOut t -> {
                judge.unanswered(probe.tool(), probe.description(), callTimeout);
                return true;
            }
            case Line.Outcome.Closed c -> {
                judge.stopped(probe.tool(), probe.description());
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    /** The answer without its id, with the given values and every token holding a digit masked. */
    static String mask(ObjectNode message, List<String> values) {
        ObjectNode copy = message.deepCopy();
        copy.remove("id");
        String text = copy.toString();
        for (String v : values) {
            text = text.replace(v, "\u0000");
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int j = i;
            boolean digit = false;
            while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '-'
                    || text.charAt(j) == '_')) {
                digit |= Character.isDigit(text.charAt(j));
                j++;
            }
            if (j > i) {
                out.append(digit ? "#" : text.substring(i, j));
                i = j;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return out.toString();
    }

    private static long median(List<Long> times) {
        List<Long> sorted = times.stream().sorted().toList();
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }
}
