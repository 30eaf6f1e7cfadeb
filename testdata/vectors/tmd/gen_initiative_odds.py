"""Expected values of initiative_odds.json: an independent brute force over every d10
face (TMD-INI-1) and over the cross-side tie-break re-rolls as the rules describe them
(TMD-INI-2: every member of a tie group spanning several sides re-rolls a d10, higher
first, until the sides separate; a sub-tie of one side keeps the given order; then
members of one side left next to each other keep the given order, RULINGS). Exact
fractions; no code shared with gunbai. Run: python3 testdata/vectors/tmd/gen_initiative_odds.py"""

import itertools
import json
import pathlib
from fractions import Fraction
from functools import lru_cache


def keep_side_order(order, sides):
    out, run = [], []
    for m in order:
        if run and sides[run[-1]] != sides[m]:
            out.extend(sorted(run))
            run = []
        run.append(m)
    out.extend(sorted(run))
    return tuple(out)


@lru_cache(maxsize=None)
def break_ties(group, sides):
    """Distribution over orders of `group` (member indices, given order) by re-rolling."""
    if len({sides[g] for g in group}) == 1:
        return {group: Fraction(1)}
    m = len(group)
    acc = {}
    stay = Fraction(0)  # outcomes that leave the group as it was (every roll equal)
    for rolls in itertools.product(range(1, 11), repeat=m):
        w = Fraction(1, 10**m)
        if len(set(rolls)) == 1:
            stay += w
            continue
        parts = []
        for value in sorted(set(rolls), reverse=True):
            sub = tuple(g for g, r in zip(group, rolls) if r == value)
            parts.append(break_ties(sub, sides))
        for combo in itertools.product(*(list(p.items()) for p in parts)):
            order = tuple(x for o, _ in combo for x in o)
            p = w
            for _, q in combo:
                p *= q
            acc[order] = acc.get(order, 0) + p
    return {o: p / (1 - stay) for o, p in acc.items()}


def odds(combatants):
    k = len(combatants)
    names = {}
    sides = tuple(names.setdefault(c["side"], len(names)) for c in combatants)
    places = [[Fraction(0)] * k for _ in range(k)]
    for rolls in itertools.product(range(1, 11), repeat=k):
        w = Fraction(1, 10**k)
        totals = [c["base_initiative"] + r for c, r in zip(combatants, rolls)]
        parts = []
        for t in sorted(set(totals), reverse=True):
            group = tuple(i for i in range(k) if totals[i] == t)
            kept = {}
            for o, p in break_ties(group, sides).items():
                kept[keep_side_order(o, sides)] = kept.get(keep_side_order(o, sides), 0) + p
            parts.append(kept)
        for combo in itertools.product(*(list(p.items()) for p in parts)):
            order = [x for o, _ in combo for x in o]
            p = w
            for _, q in combo:
                p *= q
            for place, who in enumerate(order):
                places[who][place] += p
    return places


def case(case_id, combatants, comment):
    k = len(combatants)
    denominator = 10**k
    for i in range(1, k + 1):
        denominator *= i
    table = odds(combatants)
    entries = []
    for c, row in zip(combatants, table):
        counts = [p * denominator for p in row]
        assert all(x.denominator == 1 for x in counts)
        entries.append({"id": c["id"], "places": [float(p) for p in row], "counts": [int(x) for x in counts]})
    return {"id": case_id, "rule": "TMD-INI-2", "comment": comment, "call": "tmd.initiative_odds",
            "args": {"combatants": combatants}, "expect": {"odds": entries, "denominator": denominator}}


def c(i, side, base):
    return {"id": i, "side": side, "base_initiative": base}


cases = [
    case("tmd-initiative-odds-two-sides", [c("rin", "pc", 4), c("ghoul", "npc", 1)],
         "TMD-INI-1/2: d10 + base, higher first; a cross-side tie re-rolls until it separates."),
    case("tmd-initiative-odds-same-side-tie", [c("a", "pc", 2), c("b", "pc", 2)],
         "TMD-INI-2: a tie within one side keeps the given order, so a is ahead on every tie."),
    case("tmd-initiative-odds-three-level", [c("a", "pc", 0), c("c", "pc", 0), c("b", "npc", 0)],
         "TMD-INI-2: a and c (one side) tie with b; the side's members left next to each other keep the given order."),
    case("tmd-initiative-odds-mixed", [c("a", "pc", 3), c("b", "npc", 1), c("x", "pc", 1), c("y", "third", -2)],
         "TMD-INI-1/2 over four combatants and three sides, with negative bases."),
    case("tmd-initiative-odds-one", [c("solo", "pc", 5)], "One combatant acts first."),
]
cases += [
    {"id": "tmd-initiative-odds-too-many", "call": "tmd.initiative_odds",
     "args": {"combatants": [c(f"c{i}", "pc" if i % 2 else "npc", i) for i in range(9)]},
     "expect_error": {"code": "limit_exceeded", "field": "combatants"}},
    {"id": "tmd-initiative-odds-duplicate-id", "call": "tmd.initiative_odds",
     "args": {"combatants": [c("a", "pc", 1), c("a", "npc", 2)]},
     "expect_error": {"code": "invalid_argument", "field": "combatants[1].id"}},
    {"id": "tmd-initiative-odds-empty", "call": "tmd.initiative_odds", "args": {"combatants": []},
     "expect_error": {"code": "invalid_argument", "field": "combatants"}},
    {"id": "tmd-initiative-odds-base-out-of-range", "call": "tmd.initiative_odds",
     "args": {"combatants": [c("a", "pc", 1001)]},
     "expect_error": {"code": "out_of_range", "field": "combatants[0].base_initiative"}},
]
with open(pathlib.Path(__file__).with_name("initiative_odds.json"), "w") as f:
    f.write("[\n" + ",\n".join(" " + json.dumps(x, ensure_ascii=False) for x in cases) + "\n]\n")
