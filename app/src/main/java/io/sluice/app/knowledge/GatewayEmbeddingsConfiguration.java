package io.sluice.app.knowledge;

import io.sluice.governance.gateway.EmbeddingOutcome;
import io.sluice.governance.gateway.EmbeddingRequest;
import io.sluice.governance.gateway.GatewayAssembly;
import io.sluice.governance.gateway.LlmGateway;
import io.sluice.governance.gateway.LlmOutcome;
import io.sluice.knowledge.embedding.EmbeddingException;
import io.sluice.knowledge.embedding.RemoteEmbeddings;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The knowledge module's remote embedder reaches its model through the gateway's embedding lane (permits,
 * budget, failover, key-independent metrics): knowledge owns the port, the application plugs the gateway in.
 */
@Configuration(proxyBeanMethods = false)
class GatewayEmbeddingsConfiguration {

    @Bean
    RemoteEmbeddings gatewayRemoteEmbeddings(LlmGateway gateway, GatewayAssembly assembly) {
        return (route, inputs) -> {
            String key = route;
            if (route != null && assembly.modelRoutes() != null) {
                key = assembly.modelRoutes().resolveName(route);
                if (key == null) {
                    throw new EmbeddingException("the embedding route '" + route + "' is not a gateway route");
                }
            }
            EmbeddingOutcome outcome = gateway.embed(new EmbeddingRequest(key, inputs, null));
            return switch (outcome) {
                case EmbeddingOutcome.Embedded embedded -> embedded.vectors();
                case EmbeddingOutcome.Refused refused -> throw new EmbeddingException("the gateway's embedding lane refused: "
                    + describe(refused.reason()));
            };
        };
    }

    private static String describe(LlmOutcome outcome) {
        return switch (outcome) {
            case LlmOutcome.Degraded d -> d.reason() + " (" + d.detail() + ")";
            case LlmOutcome.Saturated s -> "saturated (" + s.reason() + ")";
            case LlmOutcome.Answered a -> "answered";
        };
    }
}
