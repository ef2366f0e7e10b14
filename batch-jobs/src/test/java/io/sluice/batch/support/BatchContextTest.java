package io.sluice.batch.support;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Base of tests sharing one cached batch context (real PostgreSQL, fake gateway). */
@SpringBootTest(classes = BatchTestApplication.class)
public abstract class BatchContextTest {

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        BatchTestApplication.properties().forEach((k, v) -> registry.add(k, () -> v));
        registry.add("sluice.batch.worker-id", () -> "test-main");
    }
}
