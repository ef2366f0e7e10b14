package io.sluice;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Sluice: one executable assembling the chat API, batch jobs, knowledge, governance and console. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SluiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(SluiceApplication.class, args);
    }
}
