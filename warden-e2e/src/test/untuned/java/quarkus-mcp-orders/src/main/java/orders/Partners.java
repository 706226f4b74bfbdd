package orders;

import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The carrier's tracking API and the payment provider, over HTTP with their keys from the environment. */
@ApplicationScoped
public class Partners {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String carrierBase = env("CARRIER_API_BASE");
    private final String carrierKey = System.getenv().getOrDefault("CARRIER_API_KEY", "");
    private final String paymentsBase = env("PAYMENTS_API_BASE");

    public String track(String trackingNumber) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(carrierBase + "/track/v1/" + trackingNumber))
                .header("authorization", "Bearer " + carrierKey).timeout(Duration.ofSeconds(5)).GET().build();
        return send(request);
    }

    public String refund(String paymentId, int amountCents) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(paymentsBase + "/v1/refunds"))
                .timeout(Duration.ofSeconds(5)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"payment\":\"" + paymentId + "\",\"amount\":" + amountCents + "}"))
                .build();
        return send(request);
    }

    private String send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("partner answered " + response.statusCode() + " for " + request.uri() + ": " + response.body());
        }
        return response.body();
    }

    private static String env(String name) {
        String value = System.getenv(name);
        return value == null ? "http://127.0.0.1:9" : value;
    }
}
