package io.sluice.knowledge.config;

import io.sluice.knowledge.faq.FaqIndex;
import io.sluice.knowledge.faq.FaqRepository;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KnowledgeProperties.class)
public class KnowledgeConfiguration {

    @Bean(destroyMethod = "close")
    FaqIndex faqIndex(KnowledgeProperties properties, FaqRepository faq) {
        FaqIndex index = new FaqIndex(properties.indexDir().resolve("faq"));
        index.rebuild(faq.findAllValid());
        return index;
    }
}
