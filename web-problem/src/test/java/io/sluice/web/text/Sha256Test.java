package io.sluice.web.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** SHA-256 of a text's UTF-8 bytes, the same from every thread. */
class Sha256Test {

    @Test
    void matchesTheStandardTestVectors() {
        assertThat(Sha256.hex("abc", 32)).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(Sha256.hex("", 32)).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(Sha256.hex("abc", 12)).isEqualTo("ba7816bf8f01cfea414140de");
    }

    @Test
    void hashesTheUtf8BytesOfAnyText() {
        assertThat(Sha256.digest("退款")).hasSize(32).isEqualTo(Sha256.digest(new String("退款".toCharArray())));
        assertThat(Sha256.hex("退款", 32)).isNotEqualTo(Sha256.hex("退", 32));
    }

    @Test
    void concurrentCallersEachGetTheirOwnDigest() {
        String expected = Sha256.hex("same text", 32);
        List<String> hashes = IntStream.range(0, 10_000).parallel().mapToObj(i -> Sha256.hex("same text", 32)).toList();
        assertThat(hashes).containsOnly(expected);
    }
}
