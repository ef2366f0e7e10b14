package io.sluice.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The platform's HTTP surface the harness reads besides the chat API: Prometheus metrics, tasks, jobs. */
final class Platform {

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Metric series (name plus labels, as Prometheus writes them) to value; empty when the instance does not answer. */
    Map<String, Double> metrics(String base) {
        Map<String, Double> values = new LinkedHashMap<>();
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return values;
            }
            for (String line : response.body().split("\n")) {
                if (line.startsWith("#")) {
                    continue;
                }
                Matcher m = LINE.matcher(line);
                if (m.find()) {
                    try {
                        values.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
                    } catch (NumberFormatException ignored) {
                        // NaN / Inf spellings we do not need
                    }
                }
            }
        } catch (IOException e) {
            return values;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return values;
    }

    /** Sum of every series of the metric whose labels contain all the given fragments (e.g. {@code lane="interactive"}). */
    static double sum(Map<String, Double> metrics, String name, String... labelFragments) {
        double total = 0;
        boolean found = false;
        for (Map.Entry<String, Double> e : metrics.entrySet()) {
            String key = e.getKey();
            if (!(key.equals(name) || key.startsWith(name + "{"))) {
                continue;
            }
            boolean all = true;
            for (String fragment : labelFragments) {
                all &= key.contains(fragment);
            }
            if (all) {
                total += e.getValue();
                found = true;
            }
        }
        return found ? total : Double.NaN;
    }

    HttpResponse<String> post(String url, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15))
            .header("Authorization", "Bearer " + Fleet.API_KEY).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15))
            .header("Authorization", "Bearer " + Fleet.API_KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
