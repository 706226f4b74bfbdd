package crm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The CRM's two outside services, called the way many servers do: the API key in the query string,
 * a non-2xx answer turned into an exception that carries the URL and the body.
 */
final class Services {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String enrichBase;
    private final String enrichKey;
    private final String mailBase;

    Services(Map<String, String> env) {
        enrichBase = env.getOrDefault("ENRICH_API_BASE", "http://127.0.0.1:9");
        enrichKey = env.getOrDefault("ENRICH_API_KEY", "sk_live_missing");
        mailBase = env.getOrDefault("MAILER_API_BASE", "http://127.0.0.1:9");
    }

    String enrich(String domain) {
        return get(enrichBase + "/v1/companies/" + domain + "?api_key=" + enrichKey);
    }

    String sendWelcome(String email) {
        return post(mailBase + "/v3/mail/send", "{\"to\":\"" + email + "\",\"template\":\"welcome\"}");
    }

    private String get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build());
    }

    private String post(String url, String body) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private String send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404) {
                throw new IllegalArgumentException("No company found for " + request.uri().getPath());
            }
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("HTTP " + response.statusCode() + " from " + request.uri()
                        + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("Request to " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
