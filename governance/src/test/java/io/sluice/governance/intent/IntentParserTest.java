package io.sluice.governance.intent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Stream;

import io.sluice.governance.intent.IntentParser.Problem;
import io.sluice.governance.intent.IntentParser.Result;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IntentParserTest {

    private static final Set<String> WHITELIST = Set.of("refund", "shipping", "complaint");

    static Stream<Arguments> answersThatParse() {
        return Stream.of(
            Arguments.of("plain JSON", "{\"intent\":\"refund\",\"confidence\":0.9}", "refund", 0.9),
            Arguments.of("fenced JSON", "```json\n{\"intent\": \"shipping\", \"confidence\": 0.75}\n```", "shipping", 0.75),
            Arguments.of("fence without language", "```\n{\"intent\":\"refund\",\"confidence\":1}\n```", "refund", 1.0),
            Arguments.of("prose around JSON", "Sure! Here is the intent: {\"intent\":\"complaint\",\"confidence\":0.6} Hope it helps.", "complaint", 0.6),
            Arguments.of("confidence as a string", "{\"intent\":\"refund\",\"confidence\":\"0.8\"}", "refund", 0.8),
            Arguments.of("intent in other case, padded", "{\"intent\":\" Refund \",\"confidence\":0.5}", "refund", 0.5),
            Arguments.of("braces inside strings", "{\"intent\":\"refund\",\"note\":\"a } here\",\"confidence\":0.4}", "refund", 0.4),
            Arguments.of("confidence at the bounds", "{\"intent\":\"refund\",\"confidence\":0}", "refund", 0.0));
    }

    static Stream<Arguments> answersThatAreRejected() {
        return Stream.of(
            Arguments.of("empty answer", "", Problem.NO_JSON),
            Arguments.of("prose only", "I think the customer wants a refund.", Problem.NO_JSON),
            Arguments.of("truncated JSON", "{\"intent\":\"refund\",\"confid", Problem.TRUNCATED),
            Arguments.of("truncated inside a fence", "```json\n{\"intent\":\"refund\"", Problem.TRUNCATED),
            Arguments.of("not JSON inside braces", "{intent: refund, confidence: high}", Problem.MALFORMED),
            Arguments.of("unknown intent", "{\"intent\":\"weather\",\"confidence\":0.9}", Problem.UNKNOWN_INTENT),
            Arguments.of("confidence above 1", "{\"intent\":\"refund\",\"confidence\":1.5}", Problem.CONFIDENCE_OUT_OF_RANGE),
            Arguments.of("negative confidence", "{\"intent\":\"refund\",\"confidence\":-0.1}", Problem.CONFIDENCE_OUT_OF_RANGE),
            Arguments.of("confidence as a percentage", "{\"intent\":\"refund\",\"confidence\":\"85\"}", Problem.CONFIDENCE_OUT_OF_RANGE),
            Arguments.of("confidence a word", "{\"intent\":\"refund\",\"confidence\":\"high\"}", Problem.MALFORMED),
            Arguments.of("missing intent", "{\"confidence\":0.9}", Problem.MISSING_FIELD),
            Arguments.of("intent not a string", "{\"intent\":3,\"confidence\":0.9}", Problem.MISSING_FIELD),
            Arguments.of("missing confidence", "{\"intent\":\"refund\"}", Problem.MISSING_FIELD));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answersThatParse")
    void readsAWhitelistedIntentFromHowModelsWriteIt(String name, String text, String intent, double confidence) {
        assertThat(IntentParser.parse(text, WHITELIST)).isEqualTo(new Result.Parsed(intent, confidence));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answersThatAreRejected")
    void rejectsWhatIsNotAWhitelistedIntentWithTheReason(String name, String text, Problem problem) {
        assertThat(IntentParser.parse(text, WHITELIST)).isInstanceOfSatisfying(Result.Rejected.class,
            rejected -> assertThat(rejected.problem()).isEqualTo(problem));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answersThatAreRejected")
    void theGatewayCheckCallsEveryRejectionAProblem(String name, String text, Problem problem) {
        assertThat(IntentParser.check(WHITELIST).problem(text)).startsWith(problem.name());
    }
}
