package io.sluice.api.masking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PiiMaskerTest {

    final PiiMasker masker = new PiiMasker();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "mobile                 | 我的手机号是13812345678请回电          | 我的手机号是138****5678请回电",
        "mobile grouped, +86    | call me at +86 138-1234-5678 please   | call me at +86 138****5678 please",
        "ID card, 18 digits     | 身份证110101199003074512               | 身份证110***********4512",
        "ID card ending in X    | id 11010119900307451X ok              | id 110***********451X ok",
        "bank card (Luhn)       | 卡号 6222 0202 0000 1234 562 扣了两次   | 卡号 ***************4562 扣了两次",
        "bank card, 16 digits   | card 4111111111111111 declined        | card ************1111 declined",
        "order number (no Luhn) | 订单号 2024112512345678 没收到         | 订单号 2024112512345678 没收到",
        "short numbers stay     | 退款 300 元，3-7 个工作日               | 退款 300 元，3-7 个工作日",
        "several at once        | 13812345678 / 13987654321             | 138****5678 / 139****4321",
        "a mobile and no more   | 13812345678                           | 138****5678",
        "ten digits: no mobile  | 1381234567                            | 1381234567"})
    void masksPersonalNumbersAndLeavesTheRest(String name, String text, String expected) {
        assertThat(masker.mask(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"4111111111111111,true", "4111111111111112,false", "6222020200001234562,true"})
    void luhn(String digits, boolean valid) {
        assertThat(PiiMasker.luhn(digits)).isEqualTo(valid);
    }
}
