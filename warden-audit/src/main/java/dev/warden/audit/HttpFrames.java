package dev.warden.audit;

import dev.warden.audit.internal.RawFrames;
import dev.warden.audit.internal.RawPosts;
import dev.warden.core.sanitize.CallerInput;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The malformed JSON-RPC of {@link RawFrames}, POSTed raw on a Streamable HTTP target (a session of
 * their own, with the target's headers) and judged as over stdio: every message and any other text
 * that comes back read for leaks and codes. HTTP owes every POST an answer, so a POST without one
 * within the call timeout is UNANSWERED, and so is a 5xx that carries no JSON-RPC error (a 4xx, or
 * a JSON-RPC error, is the right answer to a malformed frame); a server that no longer answers a
 * ping afterwards is UNANSWERED too.
 */
final class HttpFrames {

    private final Line line;
    private final Judge judge;
    private final String marker;
    private final Duration callTimeout;
    private final List<String> skipped;

    HttpFrames(Line line, Judge judge, String marker, Duration callTimeout, List<String> skipped) {
        this.line = line;
        this.judge = judge;
        this.marker = marker;
        this.callTimeout = callTimeout;
        this.skipped = skipped;
    }

    /** False when the audit must stop (budget spent, server stopped). */
    boolean run(Target.Http target) {
        if (!line.pacerTake()) {
            return false;
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(callTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        try (RawPosts posts = RawPosts.open(client, target.endpoint(), target.requestHeaders(), callTimeout)) {
            for (RawFrames.Frame frame : RawFrames.of(marker)) {
                if (!line.pacerTake()) {
                    return false;
                }
                judge(frame, posts.post(frame.text()));
            }
        } catch (IOException e) {
            skipped.add("malformed JSON-RPC over HTTP: no session to send it on (" + e.getMessage() + ")");
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            client.close();
        }
        Optional<Boolean> pong = line.ping();
        if (pong.isPresent() && !pong.get()) {
            judge.findings().add(Rule.UNANSWERED, Optional.empty(), "ping after malformed JSON-RPC", "/",
                    "The server no longer answers a ping after malformed POSTs");
            return false;
        }
        return pong.isPresent();
    }

    private void judge(RawFrames.Frame frame, RawPosts.Outcome outcome) {
        String probe = "malformed JSON-RPC over HTTP: " + frame.what();
        CallerInput caller = CallerInput.ofStrings(List.of(marker));
        switch (outcome) {
            case RawPosts.Outcome.Hung h -> judge.unanswered(Optional.empty(), probe, callTimeout);
            case RawPosts.Outcome.Failed f -> skipped.add(probe + ": the connection failed (" + f.why() + ")");
            case RawPosts.Outcome.Answered a -> {
                for (ObjectNode message : a.messages()) {
                    judge.leaks(message, Optional.empty(), probe, caller, List.of());
                    judge.legacyCode(message, Optional.empty(), probe);
                }
                for (String text : a.unreadable()) {
                    judge.text(text, "body", Optional.empty(), probe, caller);
                }
                boolean anError = a.messages().stream().anyMatch(m -> m.path("error").isObject());
                if (a.status() >= 500 && !anError) {
                    judge.findings().add(Rule.UNANSWERED, Optional.empty(), probe, "status",
                            "The POST was answered HTTP " + a.status() + " with no JSON-RPC error: a server failure, "
                                    + "not a refusal of the malformed message");
                } else if (frame.answerOwed() && a.status() / 100 == 2 && a.messages().isEmpty()) {
                    judge.unanswered(Optional.empty(), probe, callTimeout);
                }
            }
        }
    }
}
