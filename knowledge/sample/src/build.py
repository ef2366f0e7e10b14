#!/usr/bin/env python3
"""Builds the sample knowledge base files from the hand-written sources in this folder.

Each line of faq-*.txt is: key | question | phrasing ; phrasing | answer | eval question ; eval question
The eval questions are paraphrases written for evaluation only: they never go into the FAQ itself.
"""
import glob, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CATEGORY_LABEL = {"orders": "订单", "shipping": "物流", "returns": "退换货", "refunds": "退款",
                  "payments": "支付", "coupons": "优惠券", "account": "账号", "complaints": "投诉"}
INTENT = {"orders": "order_problem", "shipping": "shipping", "returns": "returns", "refunds": "returns",
          "payments": "payment", "coupons": "coupon", "account": "account", "complaints": "complaint"}
VALIDITY = {  # a few entries with a validity window (e.g. seasonal promotions)
    "cpn-013": ("2026-10-01T00:00:00Z", "2027-01-31T23:59:59Z"),
}

faq, evals, intents = [], [], []
for path in sorted(glob.glob(os.path.join(HERE, "faq-*.txt"))):
    category = None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            category = line[1:].strip()
            continue
        key, question, phrasings, answer, ev = [p.strip() for p in line.split("|")]
        phrasings = [p.strip() for p in phrasings.split(";") if p.strip()]
        ev = [p.strip() for p in ev.split(";") if p.strip()]
        assert len(phrasings) >= 2 and answer and len(ev) >= 1, key
        entry = {"key": key, "category": category, "question": question, "phrasings": phrasings,
                 "answer": answer, "tags": [CATEGORY_LABEL[category]]}
        if key in VALIDITY:
            entry["validFrom"], entry["validUntil"] = VALIDITY[key]
        faq.append(entry)
        for q in ev:
            assert q not in phrasings and q != question, q
            evals.append({"question": q, "faqKey": key})
        for q in [phrasings[0]] + ev:
            intents.append((q, INTENT[category]))

for line in open(os.path.join(HERE, "intent-extra.txt"), encoding="utf-8"):
    if "|" in line:
        intent, text = [p.strip() for p in line.split("|", 1)]
        intents.append((text, intent))

keys = [e["key"] for e in faq]
assert len(keys) == len(set(keys))
with open(os.path.join(OUT, "faq.json"), "w", encoding="utf-8") as f:
    json.dump(faq, f, ensure_ascii=False, indent=1)
with open(os.path.join(OUT, "eval-questions.json"), "w", encoding="utf-8") as f:
    json.dump(evals, f, ensure_ascii=False, indent=1)
with open(os.path.join(OUT, "intent-examples.tsv"), "w", encoding="utf-8") as f:
    f.write("text\tintent\n")
    for text, intent in intents:
        f.write(text.replace("\t", " ") + "\t" + intent + "\n")
print(f"{len(faq)} FAQ entries, {len(evals)} eval questions, {len(intents)} intent examples")
