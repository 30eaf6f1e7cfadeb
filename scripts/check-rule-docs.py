#!/usr/bin/env python3
"""Check docs/rules/*.md against the vectors, the core's tests and the rules digest.

    python3 scripts/check-rule-docs.py               the check (exit 1 on any problem)
    python3 scripts/check-rule-docs.py --evidence ID what pins a rule ID (or a prefix such
                                                      as TMD-AP-): vectors, tests, core mentions
    options: --root DIR (a checkout other than this one), --rules FILE (RULES.md elsewhere)

A docs/rules file names vector IDs on lines that start with "- **Vectors**" and test
names on lines that start with "- **Tests**", each in backticks. The check fails when
  * a cited vector ID is in no file under testdata/vectors/;
  * a cited test name is no `#[test] fn` under core/;
  * a cited rule ID is not in the rules digest (RULES.md, looked for at
    $ROOT/../shared/rules/RULES.md; without it that part is skipped, with a message);
  * a rule ID that a vector names (its `rule` field) is missing from the docs file of
    its ruleset, or (with RULES.md) a rule ID of the digest is missing from it.
Python 3 standard library only.
"""

import argparse
import json
import re
import signal
import sys
from pathlib import Path

# Rule-ID prefix -> the docs/rules file of its ruleset.
DOCS = {
    "WT": "world_trigger.md",
    "COCAP": "coc_ap.md",
    "C7H": "coc7_house.md",
    "TMD": "tmd.md",
    "FM": "fap_map.md",
}
RULE_ID = re.compile(r"\b(?:%s)-[A-Z]+-\d+(?![\d])" % "|".join(DOCS))
TEST_FN = re.compile(r"#\[test\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?fn\s+([A-Za-z0-9_]+)")


def prefix(rule_id):
    return rule_id.split("-", 1)[0]


def load_vectors(root):
    """{vector id: [rule IDs]} and {vector id: (file, call, error code)}."""
    rules, info = {}, {}
    for path in sorted((root / "testdata" / "vectors").rglob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            vid = case.get("id")
            if not isinstance(vid, str):
                continue
            rule = case.get("rule") or ""
            rules[vid] = RULE_ID.findall(rule if isinstance(rule, str) else " ".join(rule))
            # A multi-step case: its last step's call, and the first refusal it expects.
            steps = [case] + [s for s in case.get("steps") or [] if isinstance(s, dict)]
            call = next((s["call"] for s in reversed(steps) if s.get("call")), None)
            err = next((s["expect_error"] for s in steps if s.get("expect_error")), None)
            code = err.get("code") if isinstance(err, dict) else err
            info[vid] = (str(path.relative_to(root)), call, code)
    return rules, info


def load_tests(root):
    """{test fn name: [rule IDs named in its doc comment or body]} for every #[test] under core/."""
    tests = {}
    for path in sorted((root / "core").rglob("*.rs")):
        if "target" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        for m in TEST_FN.finditer(text):
            name = m.group(1)
            # The comment block (and attributes) right above #[test].
            line = text.count("\n", 0, m.start())
            above = []
            i = line - 1
            while i >= 0 and re.match(r"\s*(//|#\[)", lines[i]):
                above.append(lines[i])
                i -= 1
            # The body: from the fn's first `{` to its matching `}` (strings and chars
            # are not parsed; a brace inside a string literal only shortens or lengthens
            # the span, it never hides the doc comment).
            start = text.find("{", m.end())
            depth, j = 0, start
            while j < len(text):
                c = text[j]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            body = text[start : j + 1] if start >= 0 else ""
            tests.setdefault(name, [])
            tests[name] += RULE_ID.findall("\n".join(above) + body)
    return tests


def load_rules(path):
    if not path.is_file():
        return None
    return set(RULE_ID.findall(path.read_text(encoding="utf-8")))


def cited(doc_text):
    """(rule IDs, vector IDs, test names) a docs file cites."""
    vectors, tests = [], []
    for line in doc_text.split("\n"):
        s = line.strip()
        if s.startswith("- **Vectors**"):
            vectors += re.findall(r"`([^`]+)`", s)
        elif s.startswith("- **Tests**"):
            tests += re.findall(r"`([^`]+)`", s)
    return set(RULE_ID.findall(doc_text)), vectors, tests


def evidence(root, what):
    vec_rules, vec_info = load_vectors(root)
    tests = load_tests(root)
    want = (lambda r: r.startswith(what)) if not re.search(r"-\d+$", what) else (lambda r: r == what)
    ids = sorted({r for rs in vec_rules.values() for r in rs if want(r)} | {r for rs in tests.values() for r in rs if want(r)},
                 key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))
    for rid in ids:
        print(f"== {rid}")
        vs = [v for v, rs in vec_rules.items() if rid in rs]
        print(f"vectors ({len(vs)}):")
        for v in vs:
            f, call, code = vec_info[v]
            print(f"  {v}  [{call}{' -> ' + code if code else ''}]  {f}")
        ts = sorted(t for t, rs in tests.items() if rid in rs)
        print(f"tests ({len(ts)}): {' '.join(ts)}")
        for path in sorted((root / "core" / "src").rglob("*.rs")):
            for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                if rid in RULE_ID.findall(line):
                    print(f"  {path.relative_to(root)}:{n}: {line.strip()[:150]}")
    if not ids:
        print(f"no vector or test names {what}")


def main():
    # `--evidence … | head` ends quietly.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=here)
    ap.add_argument("--rules", type=Path)
    ap.add_argument("--evidence", metavar="RULE_ID_OR_PREFIX")
    args = ap.parse_args()
    root = args.root.resolve()
    if args.evidence:
        evidence(root, args.evidence)
        return 0
    rules_path = args.rules or (root.parent / "shared" / "rules" / "RULES.md")
    rules = load_rules(rules_path)
    vec_rules, _ = load_vectors(root)
    tests = load_tests(root)
    problems = []
    n_rules, n_vectors = set(), 0
    docs_dir = root / "docs" / "rules"
    for pre, name in DOCS.items():
        path = docs_dir / name
        if not path.is_file():
            problems.append(f"docs/rules/{name} is missing")
            continue
        rule_ids, vectors, test_names = cited(path.read_text(encoding="utf-8"))
        n_rules |= rule_ids
        n_vectors += len(set(vectors))
        for v in sorted(set(vectors)):
            if v not in vec_rules:
                problems.append(f"docs/rules/{name}: vector {v} is in no file under testdata/vectors/")
        for t in sorted(set(test_names)):
            if t not in tests:
                problems.append(f"docs/rules/{name}: test {t} is no #[test] fn under core/")
        if rules is not None:
            for r in sorted(rule_ids - rules):
                problems.append(f"docs/rules/{name}: rule ID {r} is not in {rules_path.name}")
            for r in sorted(r for r in rules if prefix(r) == pre and r not in rule_ids):
                problems.append(f"docs/rules/{name}: rule ID {r} of {rules_path.name} is not documented")
        named = {r for rs in vec_rules.values() for r in rs if prefix(r) == pre}
        for r in sorted(named - rule_ids):
            problems.append(f"docs/rules/{name}: rule ID {r}, named by a vector, is not documented")
    if rules is None:
        print(f"{rules_path} not found: rule IDs not checked against the digest (vectors and tests still are)")
    for p in problems:
        print(p)
    print(f"rule docs: {len(n_rules)} rule IDs, {n_vectors} vector IDs cited, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
