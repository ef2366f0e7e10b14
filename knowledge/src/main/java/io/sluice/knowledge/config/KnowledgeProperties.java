package io.sluice.knowledge.config;

import java.nio.file.Path;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Knowledge settings ({@code sluice.knowledge.*}).
 *
 * @param indexDir where the Lucene indexes live on local disk
 */
@Validated
@ConfigurationProperties("sluice.knowledge")
public record KnowledgeProperties(@NotNull Path indexDir) {
}
