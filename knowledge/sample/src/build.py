#!/usr/bin/env python3
"""Builds the sample knowledge base files from the hand-written sources in this folder.

Each line of faq-*.txt is: key | question | phrasing ; phrasing | answer | eval question ; eval question
The eval questions are paraphrases written for evaluation only: they never go into the FAQ itself.
phrasings-extra.txt adds more phrasings per entry (key | phrasing ; phrasing ...), written from the entry's
question and answer only; a phrasing equal or too close to an eval question is refused (see too_close).
"""
import glob, json, os, re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CATEGORY_LABEL = {"orders": "订单", "shipping": "物流", "returns": "退换货", "refunds": "退款",
                  "payments": "支付", "coupons": "优惠券", "account": "账号", "complaints": "投诉"}
INTENT = {"orders": "order_problem", "shipping": "shipping", "returns": "returns", "refunds": "returns",
          "payments": "payment", "coupons": "coupon", "account": "account", "complaints": "complaint"}
VALIDITY = {  # a few entries with a validity window (e.g. seasonal promotions)
    "cpn-013": ("2026-10-01T00:00:00Z", "2027-01-31T23:59:59Z"),
}



def features(text):
    """Lower-cased English words and CJK character bigrams: what two near-copies share."""
    t = text.lower()
    words = set(re.findall(r"[a-z0-9']+", t))
    cjk = "".join(c for c in t if "\u4e00" <= c <= "\u9fff")
    return words | {cjk[i:i + 2] for i in range(len(cjk) - 1)}


def too_close(a, b):
    fa, fb = features(a), features(b)
    return bool(fa and fb) and len(fa & fb) / len(fa | fb) >= 0.6


extra = {}
for line in open(os.path.join(HERE, "phrasings-extra.txt"), encoding="utf-8"):
    if "|" in line and not line.startswith("#"):
        key, texts = [p.strip() for p in line.split("|", 1)]
        extra[key] = [p.strip() for p in texts.split(";") if p.strip()]

faq, evals, intents, added = [], [], [], {}
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
        written = list(phrasings)
        added[key] = [p for p in extra.get(key, []) if p not in phrasings and p != question]
        for p in extra.pop(key, []):
            if p not in phrasings and p != question:
                phrasings.append(p)
        entry = {"key": key, "category": category, "question": question, "phrasings": phrasings,
                 "answer": answer, "tags": [CATEGORY_LABEL[category]]}
        if key in VALIDITY:
            entry["validFrom"], entry["validUntil"] = VALIDITY[key]
        faq.append(entry)
        for q in ev:
            assert q not in written and q != question, q
            evals.append({"question": q, "faqKey": key})
        for q in [phrasings[0]] + ev:
            intents.append((q, INTENT[category]))

for line in open(os.path.join(HERE, "intent-extra.txt"), encoding="utf-8"):
    if "|" in line:
        intent, text = [p.strip() for p in line.split("|", 1)]
        intents.append((text, intent))

assert not extra, "phrasings for unknown keys: " + ", ".join(extra)
all_eval = [e["question"] for e in evals]
close = [(k, p) for k, ps in added.items() for p in ps if any(too_close(p, q) for q in all_eval)]
# only the phrasing is printed, so whoever fixes it does not read the evaluation set
assert not close, "phrasings too close to an evaluation question: " + repr(close)
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
