#!/usr/bin/env python3
"""Builds corrupt_states.json: saved TMD encounter states with one inconsistency each,
refused with `invalid_data` naming the field, and the nearby
states the rules allow, accepted. The base states are inputs of encounter.json
(captured from real play); every mutation and expectation is written by hand from
RULES.md / RULINGS.md. Run from the repository root:

    python3 testdata/vectors/tmd/gen_corrupt_states.py
"""
import copy, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "encounter.json")))}
# Round 1, A's turn; A 10 (5+5, pc), B 8 (5+3, pc), C 7 (5+2, npc), D 5 (5+0, npc).
TURNS = cases["tmd-enc-enc-convert-standard"]["args"]["state"]
# The surprise round: C (npc) attacks; nobody has rolled initiative.
SURPRISE = cases["tmd-enc-surprise-one-standard-attack"]["args"]["state"]
assert [c["initiative"] for c in TURNS["characters"]] == [10, 8, 7, 5] and TURNS["order"] == ["A", "B", "C", "D"]
assert SURPRISE["phase"] == "surprise" and SURPRISE["surprise"]["attacker"] == "C"

out = []


def case(cid, rule, comment, base, mutate, field=None):
    s = copy.deepcopy(base)
    mutate(s)
    c = {"id": "tmd-corrupt-" + cid, "rule": rule, "comment": comment,
         "call": "tmd.encounter_legal_actions", "args": {"state": s}}
    if field is None:
        c["expect"] = {}
    else:
        c["expect_error"] = {"code": "invalid_data", "field": field}
    out.append(c)


def ch(s, cid):
    return next(c for c in s["characters"] if c["id"] == cid)


def set_init(s, cid, roll, base, tiebreaks=()):
    c = ch(s, cid)
    c["initiative_roll"], c["base_initiative"], c["initiative"] = roll, base, roll + base
    c["tiebreaks"] = list(tiebreaks)


# --- TMD-INI-1: initiative = d10 + base initiative ---------------------------------
case("initiative-below-roll-plus-base", "TMD-INI-1 TMD-INI-3",
     "A rolled 5 with base 5 but its initiative says 9: an initiative below roll + base reads as a base "
     "raised since the last sort, which needs resort_pending (TMD-INI-3).",
     TURNS, lambda s: ch(s, "A").update(initiative=9), "state.characters[0].initiative")


def raised_pending(s):
    ch(s, "D").update(base_initiative=1)
    s["resort_pending"] = True


case("raised-base-waits-for-resort", "TMD-INI-1 TMD-INI-3",
     "D's base went from 0 to 1 after the sort: its initiative stays 5 until the round's end re-sorts "
     "(resort_pending), so the state is consistent.", TURNS, raised_pending)
case("raised-base-without-resort", "TMD-INI-1 TMD-INI-3",
     "The same raise without resort_pending: an increase always re-sorts at the round's end (TMD-INI-3), so "
     "initiative 5 with roll 5 and base 1 is inconsistent.",
     TURNS, lambda s: ch(s, "D").update(base_initiative=1), "state.characters[3].initiative")
case("initiative-roll-zero-in-combat", "TMD-INI-1",
     "In round 1 everyone has rolled its d10: a 0 roll (the value before any roll) is refused.",
     TURNS, lambda s: ch(s, "B").update(initiative_roll=0, initiative=3), "state.characters[1].initiative_roll")
case("initiative-before-combat", "TMD-INI-1 TMD-SUR-3",
     "Nobody rolls initiative in the surprise round (it is rolled when combat formally begins): an initiative "
     "there is refused.", SURPRISE, lambda s: ch(s, "A").update(initiative=7), "state.characters[0].initiative")

# --- the order as the rules sort it --------------------------------------------------
case("order-not-highest-first", "TMD-INI-1",
     "B (8) listed before A (10): the order is highest initiative first.",
     TURNS, lambda s: s.update(order=["B", "A", "C", "D"], queue=["A", "C", "D"], current="B"), "state.order[1]")


def cross_tie(first, second):
    def m(s):
        set_init(s, "B", 5, 3, first)   # pc, 8
        set_init(s, "C", 6, 2, second)  # npc, 8
    return m


case("cross-side-tie-by-rerolls", "TMD-INI-2",
     "B (pc) and C (npc) tie at 8; their re-rolls 6 and 3 put B first, as listed.",
     TURNS, cross_tie([6], [3]))
case("cross-side-tie-against-rerolls", "TMD-INI-2",
     "B (pc) and C (npc) tie at 8 but re-rolled 3 and 6: C goes first (the higher re-roll), so B before C is "
     "refused at C's place.", TURNS, cross_tie([3], [6]), "state.order[2]")
case("cross-side-tie-first-difference", "TMD-INI-2",
     "Re-rolls 4, 4 tie again; the second re-rolls 2 and 5 decide: C first, so B before C is refused.",
     TURNS, cross_tie([4, 2], [4, 5]), "state.order[2]")
case("cross-side-tie-unbroken", "TMD-INI-2",
     "B and C tie at 8 across sides with no re-rolls: the tie was never broken.",
     TURNS, cross_tie([], []), "state.order[2]")


def same_side_tie(s):
    set_init(s, "A", 3, 5)  # pc, 8
    # A and B (both pc) tie at 8 and B is listed first: the side's chosen order (RULINGS).
    s["order"] = ["B", "A", "C", "D"]
    s["queue"] = ["A", "C", "D"]
    s["current"] = "B"
    # B's turn has started, so B holds the turn's base AP (TMD-AP-2), not C.
    ch(s, "B").update(base_ap=14, conversion_basis=14)
    ch(s, "C").update(base_ap=0)


case("same-side-tie-any-order", "TMD-INI-2",
     "A and B (both pc) tie at 8: a same-side tie goes in the side's chosen order, so B before A is accepted.",
     TURNS, same_side_tie)


def joiner_not_last(s):
    ch(s, "B")["late_joiner"] = True


case("late-joiner-not-last", "TMD-INI-4",
     "B marked as a late joiner but listed before C and D: late joiners go after the last character.",
     TURNS, joiner_not_last, "state.order[2]")

# --- one entry per ability / free action ---------------------------------------------
FREE = {"purpose": "free", "source": "basic", "count": 1}
case("free-uses-twice", "TMD-ACT-3 TMD-ACT-4",
     "Two records for the same free action (same purpose and source): it has one count per round.",
     TURNS, lambda s: ch(s, "A").update(free_uses=[dict(FREE), dict(FREE)]), "state.characters[0].free_uses[1]")
case("free-uses-other-source", "TMD-ACT-4",
     "The same purpose from another source is another free action: two records are accepted.",
     TURNS, lambda s: ch(s, "A").update(free_uses=[dict(FREE), dict(FREE, source="talent")]))
USE = {"ability": "flame", "count": 1}
case("ability-uses-twice", "TMD-AP-10",
     "Two records for one ability: its uses this round are one count.",
     TURNS, lambda s: ch(s, "A").update(ability_uses=[dict(USE), dict(USE)]), "state.characters[0].ability_uses[1]")
case("grants-of-one-type-twice", "TMD-AP-15",
     "Two resources may each grant a standard action (grant accepts it twice; the second is gained only if "
     "the conversion conditions still allow it): two equal grants are accepted.",
     TURNS, lambda s: ch(s, "B").update(grants=["standard", "standard"]))
case("reflexes-expiring-together", "TMD-AP-9",
     "Two reflex actions converted in round 1 both expire at the end of round 2: equal entries are accepted.",
     TURNS, lambda s: ch(s, "C").update(reflexes=[2, 2]))
case("reflex-already-expired", "TMD-AP-9",
     "A reflex action kept until the end of the next round can't still be held in round 1 with expiry 0 "
     "(round 0 has ended).", TURNS, lambda s: ch(s, "C").update(reflexes=[0]), "state.characters[2].reflexes")
case("reflex-expiring-too-late", "TMD-AP-9",
     "A reflex action lasts until the end of the next round: in round 1 an expiry of round 3 is impossible.",
     TURNS, lambda s: ch(s, "C").update(reflexes=[3]), "state.characters[2].reflexes")

# --- the surprise round --------------------------------------------------------------
case("surprise-attacker-unknown", "TMD-SUR-1 TMD-SUR-3",
     "The surprise attacker is nobody in the encounter (before combat begins it can't have left).",
     SURPRISE, lambda s: s["surprise"].update(attacker="Z"), "state.surprise.attacker")
case("surprise-attack-not-made", "TMD-SUR-1",
     "Round 1 with a surprise round whose attack was never made: combat begins only after the attack.",
     TURNS, lambda s: s.update(surprise={"attacker": "C", "attack_used": False}), "state.surprise.attack_used")

# --- AP economy and turns: the rules' own invariants -----------------------------------
# Each case names the rule it protects; the refusal carries the same rule ID.
def invariant(cid, rule, comment, base, mutate, field):
    case(cid, rule, comment, base, mutate, field)
    out[-1]["expect_error"]["rule"] = rule.split()[0]


invariant("converted-past-limit", "TMD-AP-7 TMD-AP-8",
          "A, whose turn has not come (0 AP at its last turn start), holds 50 standard conversions: "
          "a turn converts a type at most 1 + floor(AP / step) times.",
          TURNS, lambda s: ch(s, "A")["converted"].update(standard=50), "state.characters[0].converted.standard")
invariant("converted-one-past-limit", "TMD-AP-7 TMD-AP-8",
          "C, at 14 AP, converted 3 moves: 1 + floor(14 / 12) = 2 is the limit.",
          TURNS, lambda s: ch(s, "C")["converted"].update(move=3), "state.characters[2].converted.move")
case("converted-at-limit", "TMD-AP-7 TMD-AP-8",
     "The control: C, at 14 AP, converted 2 moves, exactly the limit 1 + floor(14 / 12).",
     TURNS, lambda s: ch(s, "C")["converted"].update(move=2))
invariant("overdrawn-past-a-turn", "TMD-AP-11",
          "Overdrawn standard, acrobatic and swift actions owe 16 AP: the next turn's 14 base AP is all an "
          "overdraw can take.",
          TURNS, lambda s: ch(s, "D").update(overdrawn=["swift", "acrobatic", "standard"]),
          "state.characters[3].overdrawn")
case("overdrawn-one-turn", "TMD-AP-11",
     "The control: overdrawn acrobatic and standard actions owe exactly 14 AP.",
     TURNS, lambda s: ch(s, "D").update(overdrawn=["acrobatic", "standard"]))
invariant("base-ap-outside-turn", "TMD-AP-2 TMD-AP-3",
          "A holds 14 base AP while C acts: base AP comes at one's own turn start and what is left "
          "becomes extra AP at its end.",
          TURNS, lambda s: ch(s, "A").update(base_ap=14), "state.characters[0].base_ap")
invariant("turn-done-still-queued", "TMD-TIME-2",
          "D is still to come this round but says its turn has ended.",
          TURNS, lambda s: ch(s, "D").update(turn_done=True), "state.characters[3].turn_done")

# --- TMD-AP-12: set_disabled changes something, or is refused (the listing offers only
# the change; a no-op would report a false disabled_changed event). -----------------------
def set_disabled(cid, comment, base_mutate, disabled, expect=None):
    s = copy.deepcopy(TURNS)
    base_mutate(s)
    c = {"id": "tmd-corrupt-set-disabled-" + cid, "rule": "TMD-AP-12", "comment": comment,
         "call": "tmd.encounter_act",
         "args": {"state": s, "action": {"type": "set_disabled", "actor": "A", "action_type": "standard",
                                         "disabled": disabled}}}
    if expect is None:
        c["expect_error"] = {"code": "illegal_action", "rule": "TMD-AP-12"}
    else:
        c["expect"] = expect
    out.append(c)


set_disabled("regain-never-lost", "A can use standard actions: regaining them is a no-op, refused.",
             lambda s: None, False)
set_disabled("lose-already-lost", "A already cannot use standard actions: losing them again is refused.",
             lambda s: ch(s, "A").update(disabled=["standard"]), True)
set_disabled("lose", "The control: A loses standard actions.", lambda s: None, True,
             {"events": [{"event": "disabled_changed", "character": "A", "action_type": "standard",
                          "disabled": True}]})

with open(os.path.join(HERE, "corrupt_states.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in out) + "\n]\n")
print(len(out), "cases")
