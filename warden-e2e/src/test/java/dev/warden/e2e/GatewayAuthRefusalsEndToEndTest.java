package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Tokens {@code warden gateway} must refuse, each made by the real authorization server (or from
 * one it made): for another audience, expired, tampered, signed by a rotated-out key, unsigned.
 * The client gets one fixed answer for all (401, the same challenge and message, nothing of the
 * token or of the validator's words); the operator finds the real reason behind the ref.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayAuthRefusalsEndToEndTest {

    static final String MESSAGE = "Unauthorized: the access token is not valid for this server";
    /** Signs the rotated-out token; retired before the gateway ever fetches the JWKS (see {@link #start}). */
    static final String RETIRED_KID = "k2";

    AuthorizationServer as;
    HttpGateway gateway;
    String challenge;

    @BeforeAll
    void start() throws Exception {
        as = AuthorizationServer.start();
        // Retired before the gateway exists, so no JWKS it ever fetches holds the key. Retiring it
        // later would be refused only once the gateway's cached set expires (5 minutes): a key it
        // has seen stays trusted until then, which a test could only show by waiting.
        as.retire(RETIRED_KID);
        gateway = HttpGateway.start("""
                http: { port: 0 }
                auth:
                  issuers:
                    - issuer: %s
                  scopes: [mcp:tools]
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(as.issuer(), Processes.NODE, WardenClientWithServerEverythingTest.SERVER), 1);
        String origin = gateway.url().substring(0, gateway.url().indexOf("/mcp"));
        challenge = "Bearer error=\"invalid_token\", resource_metadata=\"" + origin
                + "/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\"";
    }

    @AfterAll
    void stop() throws Exception {
        if (gateway != null) {
            gateway.stop();
        }
        if (as != null) {
            as.close();
        }
    }

    private String valid(String subject) throws Exception {
        return as.tokenWith(Map.of("aud", gateway.url(), "sub", subject));
    }

    private String forAnotherAudience() throws Exception {
        return as.clientCredentialsToken("https://elsewhere.example.com/mcp", Set.of("mcp:tools"));
    }

    private String expired() throws Exception {
        return as.tokenWith(Map.of("aud", gateway.url(), "sub", "olivia", "iat", 900, "exp", 1000));
    }

    /** A valid token whose subject was changed in its payload, the signature kept. */
    private String tampered() throws Exception {
        String[] parts = valid("peggy").split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        assertThat(payload).contains("\"sub\":\"peggy\"");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("\"sub\":\"peggy\"", "\"sub\":\"peggz\"").getBytes(StandardCharsets.UTF_8));
        return parts[0] + "." + forged + "." + parts[2];
    }

    private String signedByARotatedOutKey() throws Exception {
        as.signWith(RETIRED_KID);
        try {
            return valid("rupert");
        } finally {
            as.signWith("k1");
        }
    }

    /** A valid token's header replaced by {@code alg: none}, its signature dropped. */
    private String unsigned() throws Exception {
        String[] parts = valid("sybil").split("\\.");
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"none\",\"typ\":\"at+jwt\"}".getBytes(StandardCharsets.UTF_8));
        return header + "." + parts[1] + ".";
    }

    /** The token presented on an initialize: asserts the fixed answer, returns the response. */
    private HttpResponse<String> refused(String token) throws Exception {
        HttpResponse<String> response = AuthedHttp.post(gateway.url(), AuthedHttp.bearer(token), Optional.empty(),
                AuthedHttp.initializeBody("refused"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly(challenge);
        assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
        JsonNode body = Json.mapper().readTree(response.body());
        assertThat(body.at("/error/message").asString()).isEqualTo(MESSAGE);
        assertThat(body.at("/error/data/ref").asString()).startsWith("ref_");
        // The ref is random and may spell one of the words below ("ref_…ikjwt9f"): it says nothing of the token.
        String ref = body.at("/error/data/ref").asString();
        String everything = (response.headers().map() + response.body()).replace(ref, "ref_");
        for (String part : token.split("\\.")) {
            if (part.length() > 8) {
                assertThat(everything).doesNotContain(part);
            }
        }
        assertThat(everything.toLowerCase(java.util.Locale.ROOT))
                .doesNotContain("expired", "audience", "signature", "kid", "alg", "jwt", "jwks", "issuer");
        return response;
    }

    /** What the operator reads behind the refusal's ref. */
    private String incidentOf(HttpResponse<String> response) throws Exception {
        return AuthedHttp.incident(gateway.dataDir(),
                Json.mapper().readTree(response.body()).at("/error/data/ref").asString());
    }

    @Test
    void aTokenForAnotherAudienceIsRefusedAndTheIncidentSaysSo() throws Exception {
        assertThat(incidentOf(refused(forAnotherAudience()))).contains("another audience");
    }

    @Test
    void anExpiredTokenIsRefusedAndTheIncidentSaysSo() throws Exception {
        assertThat(incidentOf(refused(expired()))).containsIgnoringCase("expired");
    }

    @Test
    void aTamperedTokenIsRefusedAndTheIncidentSaysSo() throws Exception {
        assertThat(incidentOf(refused(tampered()))).containsIgnoringCase("signature");
    }

    @Test
    void aTokenSignedByARotatedOutKeyIsRefusedAndTheIncidentSaysSo() throws Exception {
        assertThat(as.publishedKids()).doesNotContain(RETIRED_KID);

        assertThat(incidentOf(refused(signedByARotatedOutKey()))).containsIgnoringCase("no matching key");
    }

    @Test
    void anUnsignedTokenIsRefusedAndTheIncidentSaysSo() throws Exception {
        assertThat(incidentOf(refused(unsigned()))).contains("alg none");
    }

    @Test
    void everyRefusedTokenGetsTheSameAnswerButItsRef() throws Exception {
        List<String> answers = new ArrayList<>();
        for (String token : List.of(forAnotherAudience(), expired(), tampered(), signedByARotatedOutKey(), unsigned())) {
            HttpResponse<String> response = refused(token);
            Map<String, List<String>> headers = new java.util.TreeMap<>(response.headers().map());
            headers.keySet().removeIf(name -> name.equalsIgnoreCase("date"));
            answers.add(response.statusCode() + " " + headers + " "
                    + response.body().replaceAll("ref_[a-z0-9]{16}", "ref_"));
        }

        assertThat(answers).hasSize(5).containsOnly(answers.getFirst());
    }

    @Test
    void theSameSubjectWithAValidTokenIsServed() throws Exception {
        String session = AuthedHttp.initialize(gateway.url(), AuthedHttp.bearer(valid("peggy")), "control");

        assertThat(AuthedHttp.call(gateway.url(), AuthedHttp.bearer(valid("peggy")), session, 2, "echo",
                "{\"message\":\"ok\"}").at("/result/content/0/text").asString()).isEqualTo("Echo: ok");
    }
}
