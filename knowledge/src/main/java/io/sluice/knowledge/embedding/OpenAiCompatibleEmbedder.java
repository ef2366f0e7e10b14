package io.sluice.knowledge.embedding;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Embeddings from any OpenAI-compatible {@code POST /v1/embeddings} endpoint (OpenAI, vLLM, Ollama,
 * llama.cpp server). Vectors are normalized; the configured dimension must match the model's.
 */
public class OpenAiCompatibleEmbedder implements Embedder {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = JsonMapper.builder().build();
    private final URI endpoint;
    private final String model;
    private final String apiKey;
    private final int dimension;
    private final int batchSize;

    public OpenAiCompatibleEmbedder(String baseUrl, String model, String apiKey, int dimension, int batchSize) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.endpoint = URI.create(base.endsWith("/v1") ? base + "/embeddings" : base + "/v1/embeddings");
        this.model = model;
        this.apiKey = apiKey;
        this.dimension = dimension;
        this.batchSize = Math.max(1, batchSize);
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String modelId() {
        return "openai-compatible:" + model;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += batchSize) {
            out.addAll(call(texts.subList(from, Math.min(texts.size(), from + batchSize))));
        }
        return out;
    }

    private List<float[]> call(List<String> batch) {
        try {
            String body = json.writeValueAsString(Map.of("model", model, "input", batch));
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
            if (apiKey != null && !apiKey.isBlank()) {
                request.header("Authorization", "Bearer " + apiKey);
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new EmbeddingException("embeddings endpoint answered HTTP " + response.statusCode());
            }
            JsonNode data = json.readTree(response.body()).path("data");
            float[][] vectors = new float[batch.size()][];
            for (JsonNode item : data) {
                JsonNode values = item.path("embedding");
                float[] v = new float[values.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) values.get(i).asDouble();
                }
                if (v.length != dimension) {
                    throw new EmbeddingException("embeddings endpoint returned " + v.length
                        + " dimensions, configured " + dimension);
                }
                vectors[item.path("index").asInt()] = Vectors.normalize(v);
            }
            List<float[]> result = new ArrayList<>(batch.size());
            for (float[] v : vectors) {
                if (v == null) {
                    throw new EmbeddingException("embeddings endpoint returned fewer vectors than inputs");
                }
                result.add(v);
            }
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddingException("interrupted while calling the embeddings endpoint", e);
        } catch (java.io.IOException e) {
            throw new EmbeddingException("embeddings endpoint unreachable: " + e.getClass().getSimpleName(), e);
        }
    }
}
