package io.sluice.semantics.pairs;

import java.util.List;
import java.util.Set;

/**
 * What the pair features compare, read once from one question (a cached question's signals are kept
 * with it, so a lookup analyses only the new question).
 *
 * @param normalized  the text after {@link QuestionAnalyzer#normalize} (case, width, script folded)
 * @param numbers     numbers with their unit, in order of appearance ("5:30", "13", "3d")
 * @param negated     whether the question is negated (不能, 无法, can't, ...)
 * @param directions  ordered endpoint pairs ("上海>郑州", "london>paris"); empty when none
 * @param concepts    customer-service concepts named (synonyms folded: 运费 = 邮费 = shipping fee)
 * @param entities    literal entities: Latin words inside Chinese text, codes with digits, capitalised names
 * @param grams       lexical units: CJK character bigrams and Latin words
 */
public record QuestionSignals(String normalized, List<String> numbers, boolean negated, List<String> directions,
        Set<String> concepts, Set<String> entities, Set<String> grams) {
}
