package io.sluice.app.chat;

import io.sluice.api.masking.PiiMasker;
import io.sluice.batch.tasks.PayloadMasker;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Task payloads are masked by the same {@link PiiMasker} as everything the chat stores (one masker). */
@Configuration(proxyBeanMethods = false)
class TaskPayloadMasking {

    @Bean
    PayloadMasker taskPayloadMasker(PiiMasker masker) {
        return masker::mask;
    }
}
