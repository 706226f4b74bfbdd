package dev.warden.audit;

import dev.warden.audit.internal.Crossing;
import dev.warden.audit.internal.Identifiers;
import dev.warden.audit.internal.RecordTools;
import dev.warden.audit.internal.Pacer;
import dev.warden.audit.internal.Probe;
import dev.warden.audit.internal.ProbeGenerator;
import dev.warden.audit.internal.ToolNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The authorization probes: two callers, each on a connection of its own (its own headers, or its
 * own login), learn their identifiers from their own answers (tools that need no argument, the
 * login's answer); identifiers only one of them saw are that one's records (what both see may be
 * public, and is left alone). Each record tool is called by the owner with its identifier, by the
 * other caller with the same, and by the other caller with an identifier nobody owns (the control):
 * {@link Crossing} judges what crossed. Only tools the audit may call are used; no credential and no
 * record is shown in the report.
 */
final class CrossCallers {

    /** Identifiers of one caller tried per tool at most. */
    static final int MAX_IDS = 5;

    private final Audit audit;
    private final Pacer pacer;
    private final FindingSet findings;
    private final List<String> skipped;
    private final ProbeGenerator generator;

    CrossCallers(Audit audit, Pacer pacer, FindingSet findings, List<String> skipped, ProbeGenerator generator) {
        this.audit = audit;
        this.pacer = pacer;
        this.findings = findings;
        this.skipped = skipped;
        this.generator = generator;
    }

    /** One caller's connection, and what it learned. */
    private final class Side implements AutoCloseable {
        final int number;
        final Line line = new Line(pacer, audit.clock(), audit.callTimeout(), audit.maxCallTime());
        final Set<String> ids = new LinkedHashSet<>();
        Optional<String> token = Optional.empty();

        Side(int number) {
            this.number = number;
        }

        Optional<JsonNode> call(JsonNode tool, ObjectNode arguments, String what) {
            String name = tool.path("name").asString("");
            token.ifPresent(t -> RecordTools.tokenProperty(tool).ifPresent(p -> arguments.put(p, t)));
            Probe probe = generator.call(Probe.Kind.VALID, name, what, arguments);
            return line.call(probe) instanceof Line.Outcome.Answered a ? Optional.of(a.message()) : Optional.empty();
        }

        @Override
        public void close() {
            line.close();
        }
    }

    void run(List<JsonNode> callable) {
        List<JsonNode> records = RecordTools.records(callable);
        if (records.isEmpty()) {
            skipped.add("authorization: no tool the audit may call takes a record's identifier; the two callers "
                    + "were not compared");
            return;
        }
        try (Side first = new Side(1); Side second = new Side(2)) {
            if (!learn(first, callable) || !learn(second, callable)) {
                return;
            }
            Set<String> all = new HashSet<>(first.ids);
            all.addAll(second.ids);
            Set<String> firstOwns = new LinkedHashSet<>(first.ids);
            firstOwns.removeAll(second.ids);
            Set<String> secondOwns = new LinkedHashSet<>(second.ids);
            secondOwns.removeAll(first.ids);
            if (firstOwns.isEmpty() && secondOwns.isEmpty()) {
                skipped.add("authorization: the two callers' answers name no identifier one has and the other has "
                        + "not; nothing to cross");
                return;
            }
            for (JsonNode tool : records) {
                cross(tool, first, second, firstOwns, all);
                cross(tool, second, first, secondOwns, all);
            }
        }
    }

    /** Connects {@code side} as its caller, logs it in if it has an account, and reads its identifiers. */
    private boolean learn(Side side, List<JsonNode> callable) {
        Caller caller = audit.callers().get(side.number - 1);
        try {
            side.line.connect(target(caller));
        } catch (RuntimeException e) {
            skipped.add("authorization: caller " + side.number + " could not connect (" + e.getClass().getSimpleName()
                    + "); the two callers were not compared");
            return false;
        }
        if (caller.account().isPresent()) {
            Optional<JsonNode> login = callable.stream().filter(t -> ToolNames.login(t).isPresent()).findFirst();
            if (login.isEmpty()) {
                skipped.add("authorization: accounts were given but no tool logs in; the two callers were not compared");
                return false;
            }
            List<String> fields = ToolNames.login(login.get()).orElseThrow();
            ObjectNode args = generator.valid(login.get().path("inputSchema"));
            args.put(fields.get(0), caller.account().get().name());
            args.put(fields.get(1), caller.account().get().password());
            Optional<JsonNode> answer = side.call(login.get(), args, "log in as caller " + side.number);
            if (answer.isEmpty() || !Crossing.success(answer.get())) {
                skipped.add("authorization: caller " + side.number + "'s login failed; the two callers were not compared");
                return false;
            }
            side.token = Identifiers.token(answer.get());
            side.ids.addAll(Identifiers.in(answer.get()));
            side.token.ifPresent(side.ids::remove);
        }
        for (JsonNode tool : RecordTools.baselines(callable)) {
            side.call(tool, generator.valid(tool.path("inputSchema")), "caller " + side.number + "'s own view")
                    .ifPresent(answer -> side.ids.addAll(Identifiers.in(answer)));
        }
        return true;
    }

    /** The same server as the caller: over HTTP with its own headers; stdio and in-process, a connection of its own. */
    private Target target(Caller caller) {
        return audit.target() instanceof Target.Http h && !caller.headers().isEmpty()
                ? Target.http(h.endpoint(), caller.headers()) : audit.target();
    }

    /** {@code other} asks {@code tool} for each of {@code owner}'s records, and for one nobody owns. */
    private void cross(JsonNode tool, Side owner, Side other, Set<String> owned, Set<String> seen) {
        String name = tool.path("name").asString("");
        String property = RecordTools.idProperty(tool).orElseThrow();
        boolean integer = "integer".equals(tool.path("inputSchema").path("properties").path(property).path("type")
                .asString("")) || "number".equals(tool.path("inputSchema").path("properties").path(property)
                .path("type").asString(""));
        Optional<JsonNode> control = Optional.empty();
        String controlId = "";
        int tried = 0;
        for (String id : owned) {
            if (tried >= MAX_IDS || !pacer.has(3) || integer && !isInteger(id)) {
                continue;
            }
            tried++;
            Optional<JsonNode> mine = owner.call(tool, arguments(tool, property, id, integer),
                    "caller " + owner.number + "'s own record");
            if (mine.isEmpty() || !Crossing.success(mine.get())) {
                continue;
            }
            Optional<JsonNode> theirs = other.call(tool, arguments(tool, property, id, integer),
                    "caller " + other.number + " with caller " + owner.number + "'s identifier");
            if (theirs.isEmpty() || !Crossing.success(theirs.get())) {
                continue;
            }
            if (control.isEmpty()) {
                controlId = Crossing.control(id, seen);
                control = other.call(tool, arguments(tool, property, controlId, integer),
                        "caller " + other.number + " with an identifier nobody owns");
            }
            if (control.isPresent() && Crossing.crosses(mine.get(), theirs.get(), control.get(), id, controlId)) {
                findings.add(Rule.CROSS_CALLER_ACCESS, Optional.of(name), "tools/call as caller " + other.number
                        + " with an identifier from caller " + owner.number + "'s own answers", "/result",
                        "Caller " + other.number + " got caller " + owner.number + "'s record by its identifier ('"
                                + property + "'): the answer its owner got, where an identifier nobody owns was refused");
                return;
            }
        }
    }

    private ObjectNode arguments(JsonNode tool, String property, String id, boolean integer) {
        ObjectNode args = generator.valid(tool.path("inputSchema"));
        if (integer) {
            args.put(property, Long.parseLong(id));
        } else {
            args.put(property, id);
        }
        return args;
    }

    private static boolean isInteger(String id) {
        if (id.isEmpty() || id.length() > 18) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            if (!Character.isDigit(id.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
