package io.sluice.batch.api;

/** No such task (404). */
class NotFoundException extends RuntimeException {

    NotFoundException(String message) {
        super(message);
    }
}
