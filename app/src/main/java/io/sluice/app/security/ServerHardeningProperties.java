package io.sluice.app.security;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits that protect the server's threads from slow clients ({@code sluice.server.*}), on top of
 * {@code server.tomcat.connection-timeout} (request line and headers; read without holding a thread).
 *
 * @param minDataRate      a request body must arrive at least this fast (bytes/s, averaged) once the grace is over
 * @param grace            a body may be slower than the minimum rate for this long at its start
 * @param maxBodyReadTime  a body must be complete within this time
 * @param uploadReadTimeout longest wait for the next bytes of a body (Tomcat's connectionUploadTimeout)
 * @param maxFormBytes     largest form body (console forms, the login) read ahead of the application
 * @param directSocketBuffers each connection's read and write buffers outside the heap (Tomcat's
 *                         {@code socket.directBuffer}): a thousand open connections' buffers are then not copied by
 *                         every young collection while their calls wait, nor promoted with them (docs/capacity.md)
 */
@Validated
@ConfigurationProperties("sluice.server")
public record ServerHardeningProperties(@DefaultValue("512") @Min(1) long minDataRate,
        @DefaultValue("2s") Duration grace, @DefaultValue("60s") Duration maxBodyReadTime,
        @DefaultValue("10s") Duration uploadReadTimeout, @DefaultValue("1048576") @Min(1024) long maxFormBytes,
        @DefaultValue("true") boolean directSocketBuffers) {
}
