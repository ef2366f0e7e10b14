package io.sluice.batch.tasks;

/**
 * Masks personal numbers (phones, ID and bank cards) in the free text of task payloads before they are
 * stored. The application wires platform-api's {@code PiiMasker} in (one masker for everything Sluice
 * stores); batch-jobs alone, without it, stores payloads as given.
 */
@FunctionalInterface
public interface PayloadMasker {

    PayloadMasker NONE = text -> text;

    String mask(String text);
}
