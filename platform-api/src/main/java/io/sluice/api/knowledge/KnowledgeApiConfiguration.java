package io.sluice.api.knowledge;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KnowledgeApiProperties.class)
public class KnowledgeApiConfiguration {

    @Bean(destroyMethod = "close")
    IngestJobs ingestJobs(KnowledgeApiProperties properties) {
        return new IngestJobs(properties.ingestWorkers(), properties.ingestQueue());
    }
}
