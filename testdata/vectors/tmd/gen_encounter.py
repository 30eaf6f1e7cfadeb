#!/usr/bin/env python3
"""Builds encounter.json: scripted TMD encounters whose intermediate states are
captured from the core (as vector *inputs*); every expectation below is written
by hand from the rules. Run from the repository root:

    python3 testdata/vectors/tmd/gen_encounter.py

It plays the scripts through the ignored test `tmd::encounter::vector_gen`.
"""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FOUR = [{"id": "A", "side": "pc", "base_initiative": 5, "is_pc": True}, {"id": "B", "side": "pc", "base_initiative": 3, "is_pc": True},
        {"id": "C", "side": "npc", "base_initiative": 2}, {"id": "D", "side": "npc", "base_initiative": 0}]
E = lambda **kw: kw  # event / object literal


def new(v=None, **args):
    return {"call": "tmd.encounter_new", "args": args, "v": v}


def act(action, v=None, rolls=None, patch=None):
    a = {"state": "$prev", "action": action}
    if rolls is not None:
        a["rolls"] = rolls
    return {"call": "tmd.encounter_act", "args": a, "v": v, "patch": patch}


def legal(v=None):
    return {"call": "tmd.encounter_legal_actions", "args": {"state": "$prev"}, "v": v}


def V(id, rule, expect=None, err=None):
    return {"id": "tmd-enc-" + id, "rule": rule, "expect": expect, "err": err}


def ill(rule):
    return {"code": "illegal_action", "rule": rule}


K = lambda type, **kw: dict(type=type, **kw)
end = lambda c: K("end_turn", actor=c)
conv = lambda c, t, n=1: K("convert", actor=c, action_type=t, count=n)
use = lambda c, t, **kw: K("use_action", actor=c, action_type=t, **kw)
TS = lambda c, base=14, extra=0, lost=0, blocked=(): E(event="turn_started", character=c, base_ap=base, extra_ap=extra,
                                                        ap_lost_to_overdraw=lost, blocked=list(blocked))
TE = lambda c, removed=0, carried=0, ro=0: E(event="turn_ended", character=c, extra_ap_removed=removed,
                                               reflex_only_ap_removed=ro, extra_ap_carried=carried)

S = []
# 1. Delays (TMD-INI-5 and its EXAMPLE), conversions, full-round actions, swift -> reflex.
S += [
    new(V("new-rolls-initiative", "TMD-INI-1 TMD-INI-7 TMD-SCN-1 TMD-TIME-1",
          {"state": {"phase": "delays", "round": 1, "scene": 1, "order": ["A", "B", "C", "D"], "current": None},
           "events": [E(event="scene_ended", scene=0, reason="battle_start"), E(event="scene_started", scene=1),
                      E(event="initiative_rolled", reason="combat_start", entries=[
                          E(id="A", side="pc", base_initiative=5, roll=5, total=10, tiebreaks=[]),
                          E(id="B", side="pc", base_initiative=3, roll=5, total=8, tiebreaks=[]),
                          E(id="C", side="npc", base_initiative=2, roll=5, total=7, tiebreaks=[]),
                          E(id="D", side="npc", base_initiative=0, roll=5, total=5, tiebreaks=[])]),
                      E(event="combat_started"), E(event="round_started", round=1, order=["A", "B", "C", "D"])]}),
        characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("delay", actor="A", after="C"), V("INI-5-EXAMPLE-a-delays-after-c", "TMD-INI-5",
        {"events": [E(event="delay_declared", character="A", after="C")]})),
    act(K("delay", actor="B", after="C"), V("INI-5-EXAMPLE-nobody-else-after-c", "TMD-INI-5", err=ill("TMD-INI-5"))),
    act(K("delay", actor="C", after="A"), V("delay-only-after-lower", "TMD-INI-5", err=ill("TMD-INI-5"))),
    act(K("delay", actor="D", after="C"), V("delay-not-after-higher", "TMD-INI-5", err=ill("TMD-INI-5"))),
    act(K("delay", actor="B", after="D"), V("second-delay-other-target", "TMD-INI-5",
        {"state": {"delays": [E(character="A", after="C"), E(character="B", after="D")], "delay_cursor": 2}})),
    act(K("delay", actor="A", after="D"), V("delays-declared-top-down", "TMD-INI-5", err=ill("TMD-INI-5"))),
    act(K("start_turns"), V("delayers-act-after-targets-order-unchanged", "TMD-INI-5 TMD-INI-6 TMD-AP-2 TMD-TIME-2",
        {"state": {"order": ["A", "B", "C", "D"], "current": "C", "queue": ["A", "D", "B"], "phase": "turns"},
         "events": [E(event="turn_order_set", turns=["C", "A", "D", "B"]), TS("C")]})),
    act(conv("C", "standard", 2), V("enc-two-standards-at-14", "TMD-AP-7", err=ill("TMD-AP-7"))),
    act(conv("C", "swift", 4), V("enc-four-swifts-at-14", "TMD-AP-8", err=ill("TMD-AP-8"))),
    act(conv("C", "standard"), V("enc-convert-standard", "TMD-AP-5 TMD-AP-6",
        {"events": [E(event="converted", character="C", action_type="standard", count=1, ap_spent=8)]})),
    # More of the type picked last is not a second pick (TMD-AP-6); with 14 AP the
    # standard cap of TMD-AP-7 (one per turn) refuses it.
    act(conv("C", "standard"), V("enc-standard-again-refused-by-cap", "TMD-AP-7 TMD-AP-6", err=ill("TMD-AP-7"))),
    act(conv("C", "move"), V("enc-convert-move", "TMD-AP-5",
        {"events": [E(event="converted", character="C", action_type="move", count=1, ap_spent=4)]})),
    act(use("C", "full_round"), V("full-round-from-standard-and-move", "TMD-AP-16",
        {"events": [E(event="action_used", character="C", action_type="full_round", spent=["standard", "move"],
                      out_of_turn=False, ability=None)]})),
    act(conv("C", "trick"), V("convert-only-at-turn-start", "TMD-AP-6", err=ill("TMD-AP-6"))),
    act(use("C", "standard"), V("use-needs-held-action", "TMD-AP-11", err=ill("TMD-AP-11"))),
    act(end("C"), V("end-turn-leftover-base-becomes-extra", "TMD-AP-2 TMD-AP-3 TMD-TIME-2",
        {"events": [TE("C", carried=2), TS("A")], "state": {"current": "A"}})),
    act(end("B"), V("only-current-ends-turn", "TMD-TIME-2", err=ill("TMD-TIME-2"))),
    act(conv("A", "standard")),
    act(use("A", "full_round", companion="move"), V("full-round-needs-move-or-acrobatic", "TMD-AP-16", err=ill("TMD-AP-16"))),
    act(conv("A", "acrobatic")),
    act(use("A", "full_round", companion="acrobatic"), V("full-round-from-standard-and-acrobatic", "TMD-AP-16",
        {"events": [E(event="action_used", character="A", action_type="full_round", spent=["standard", "acrobatic"],
                      out_of_turn=False, ability=None)]})),
    act(end("A")),
    act(conv("D", "move", 2)),
    act(conv("D", "swift", 3), V("enc-three-swifts-after-two-moves", "TMD-AP-8",
        {"events": [E(event="converted", character="D", action_type="swift", count=3, ap_spent=6)]})),
    act(use("D", "trick", using="swift"), V("higher-stands-in-for-lower", "TMD-AP-17 TMD-ACT-5",
        {"events": [E(event="action_used", character="D", action_type="trick", spent=["swift"], out_of_turn=False,
                      ability=None)]})),
    act(use("D", "standard", using="move"), V("lower-cannot-stand-in", "TMD-AP-17", err=ill("TMD-AP-17"))),
    act(use("D", "reflex"), V("no-reflex-in-own-turn", "TMD-ACT-10", err=ill("TMD-ACT-10"))),
    act(end("D")),
    act(conv("B", "swift")),
    act(use("B", "swift")),
    act(end("B"), V("round-end-removes-and-swift-becomes-reflex", "TMD-AP-9 TMD-TIME-5",
        {"events": [TE("B", carried=12),
                    E(event="actions_removed", character="D", count=2),
                    E(event="swift_became_reflex", character="D", count=2, expires_round=2),
                    E(event="round_ended", round=1),
                    E(event="round_started", round=2, order=["A", "B", "C", "D"])],
         "state": {"round": 2, "phase": "delays", "scene_seconds": 12}})),
    act(K("start_turns")),
    act(use("D", "reflex", using="reflex"), V("reflex-out-of-turn-drop-prone", "TMD-ACT-10 TMD-AP-9",
        {"events": [E(event="action_used", character="D", action_type="reflex", spent=["reflex"], out_of_turn=True,
                      ability="drop_prone")]})),
    act(use("D", "standard", using="move"), V("out-of-turn-only-reflex", "TMD-ACT-10", err=ill("TMD-ACT-10"))),
    act(end("A")),
    act(conv("B", "standard"), V("extra-ap-counts-for-limits", "TMD-AP-3 TMD-AP-8",
        {"events": [E(event="converted", character="B", action_type="standard", count=1, ap_spent=8)]})),
    act(end("B"), V("old-extra-ap-removed-at-turn-end", "TMD-AP-3",
        {"events": [TE("B", removed=4, carried=14), TS("C", extra=2)]})),
    act(end("C")),
    act(end("D"), V("reflex-expires-end-of-next-round", "TMD-AP-9",
        {"events": [TE("D", carried=14, removed=0),
                    E(event="actions_removed", character="B", count=1),
                    E(event="reflex_expired", character="D", count=1),
                    E(event="round_ended", round=2),
                    E(event="round_started", round=3, order=["A", "B", "C", "D"])]})),
]
# 1b. B's turn start in round 2 had 14 base + 12 extra (checked via limits): a second standard is allowed.
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")), act(end("A")),
    act(end("B")), act(end("C")), act(end("D")),
    act(K("start_turns")), act(end("A")),
    act(conv("B", "standard", 2), V("enc-two-standards-at-28", "TMD-AP-8 TMD-AP-2",
        {"events": [E(event="converted", character="B", action_type="standard", count=2, ap_spent=16)]})),
]
# 1c. The conversion_ap_basis variant inside an encounter.
for basis, ok in (("turn_start", True), ("remaining", False)):
    S += [
        new(characters=FOUR, rolls=[5, 5, 5, 5], variants={"conversion_ap_basis": basis}),
        # B gains the 10 AP out of its turn: it is old extra AP at B's turn end and removed
        # (AP gained during B's own turn would carry over, RULINGS 2026-12-05).
        act(K("start_turns")), act(K("gain_ap", actor="B", amount=10)), act(end("A")),
        act(end("B")), act(end("C")), act(end("D")),
        act(K("start_turns")), act(end("A")),
        act(conv("B", "swift")),
        act(conv("B", "standard", 2), V("variant-%s-basis" % basis.replace("_", "-"), "TMD-AP-8",
            {"events": [E(event="converted", character="B", action_type="standard", count=2, ap_spent=16)]} if ok else None,
            None if ok else ill("TMD-AP-7"))),
    ]
# 2. Overdraw (TMD-AP-11/12/13).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")),
    act(conv("A", "standard")),
    act(K("overdraw", actor="A", action_type="standard"), V("overdraw-standard", "TMD-AP-11",
        {"events": [E(event="overdrawn", character="A", action_type="standard", ap_owed=8),
                    E(event="action_used", character="A", action_type="standard", spent=[], out_of_turn=False,
                      ability="overdraw")]})),
    act(K("overdraw", actor="A", action_type="standard"), V("overdraw-once", "TMD-AP-13", err=ill("TMD-AP-13"))),
    act(K("overdraw", actor="D", action_type="standard")),
    act(K("overdraw", actor="D", action_type="acrobatic")),
    act(K("overdraw", actor="D", action_type="trick"), V("overdraw-not-past-14", "TMD-AP-11", err=ill("TMD-AP-11"))),
    act(K("set_disabled", actor="B", action_type="move", disabled=True)),
    act(K("overdraw", actor="B", action_type="move"), V("disabled-cannot-overdraw", "TMD-AP-12", err=ill("TMD-AP-12"))),
    act(end("A")),
    act(conv("B", "move"), V("disabled-cannot-convert", "TMD-AP-12", err=ill("TMD-AP-12"))),
    act(end("B")), act(end("C")),
    act(end("D"), V("overdraw-same-round-costs-this-turn-none", "TMD-AP-11",
        {"state": {"round": 2}})),
    act(K("start_turns"), V("overdraw-costs-next-turn", "TMD-AP-11",
        {"events": [E(event="turn_order_set", turns=["A", "B", "C", "D"]),
                    TS("A", base=6, extra=6, lost=8, blocked=["standard"])]})),
    act(conv("A", "standard"), V("overdrawn-type-blocked", "TMD-AP-11", err=ill("TMD-AP-11"))),
    act(K("overdraw", actor="A", action_type="standard"), V("no-overdraw-while-paying-for-the-last", "TMD-AP-13",
        err=ill("TMD-AP-13"))),
    act(conv("A", "acrobatic"), V("other-types-still-convert", "TMD-AP-11",
        {"events": [E(event="converted", character="A", action_type="acrobatic", count=1, ap_spent=6)]})),
    act(end("A")), act(end("B")), act(end("C")),
]
# 3. Interrupts (TMD-INT-1..4) and out-of-turn reflex conversion (TMD-AP-4). RULINGS 2026-12-05: an
#    inserted action resolves first; only when the interrupted action is a PC's out-of-turn action does
#    AP decide, comparing the current AP less the AP gained from effects since the unit's turn start.
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")),
    act(conv("A", "standard")),
    act(K("gain_ap", actor="C", amount=10)),
    act(K("gain_ap", actor="B", amount=3)),
    act(K("announce", actor="A", label="attack"), V("announce-starts-chain", "TMD-INT-1",
        {"events": [E(event="chain_started", character="A", entry=0)]})),
    act(end("A"), V("no-turn-end-during-chain", "TMD-INT-1", err=ill("TMD-INT-1"))),
    act(K("interrupt", actor="B"), V("interrupt-of-in-turn-action-resolves-first", "TMD-INT-1 TMD-INT-2",
        {"events": [E(event="interrupt_declared", character="B", entry=1, interrupts=0, interrupter_ap=0,
                      interrupted_ap=6, first="B", locked_out=None)]})),
    act(K("interrupt", actor="B"), V("no-interrupt-of-own-inserted-action", "TMD-INT-1", err=ill("TMD-INT-1"))),
    act(K("gain_ap", actor="D", amount=50)),
    act(K("interrupt", actor="C", ignores_preemption=True), V("interrupt-of-pc-out-of-turn-action-goes-by-ap", "TMD-INT-2 TMD-INT-4",
        {"events": [E(event="interrupt_declared", character="C", entry=2, interrupts=1, interrupter_ap=0,
                      interrupted_ap=0, first="B", locked_out="C"),
                    E(event="preemption_ignored", character="C")]})),
    act(K("interrupt", actor="C"), V("less-ap-cannot-interrupt-again", "TMD-INT-2", err=ill("TMD-INT-2"))),
    act(K("resolve"), V("resolve-first-pending", "TMD-INT-1",
        {"events": [E(event="resolved", entry=1, character="B", label="")],
         "state": {"chain": {"entries": [{"id": 2}, {"id": 0}], "locked_out": ["C"]}}})),
    act(K("resolve")),
    act(K("resolve"), V("chain-ends", "TMD-INT-1",
        {"events": [E(event="resolved", entry=0, character="A", label="attack"), E(event="chain_ended")],
         "state": {"chain": None}})),
    act(K("gain_ap", actor="D", amount=4, reflex_only=True)),
    act(K("convert_reflex", actor="D", count=2), V("out-of-turn-ap-to-reflex", "TMD-AP-4",
        {"events": [E(event="converted", character="D", action_type="reflex", count=2, ap_spent=4)]})),
    act(K("convert_reflex", actor="A", count=1), V("no-out-of-turn-conversion-in-turn", "TMD-AP-4", err=ill("TMD-AP-4"))),
    act(K("announce", actor="A")),
    act(K("interrupt", actor="D", reflex=True), V("reflex-interrupt", "TMD-INT-3",
        {"events": [E(event="interrupt_declared", character="D", entry=1, interrupts=0, interrupter_ap=0,
                      interrupted_ap=6, first="D", locked_out=None)]})),
    act(K("resolve"), V("after-reflex-resolves-asked-again", "TMD-INT-3",
        {"state": {"chain": {"entries": [{"id": 0, "reasked": True, "closed": False}]}}})),
    act(K("pass"), V("nobody-interrupts-closes", "TMD-INT-3", {"events": [E(event="interrupts_closed", entry=0)]})),
    act(K("interrupt", actor="C"), V("closed-to-interrupts", "TMD-INT-3", err=ill("TMD-INT-3"))),
    act(K("resolve")),
    act(K("gain_ap", actor="B", amount=3)),
    act(K("announce", actor="A")),
    act(K("gain_ap", actor="B", amount=100)),
    act(K("interrupt", actor="B"), V("gained-ap-left-out-of-the-comparison", "TMD-INT-2",
        {"events": [E(event="interrupt_declared", character="B", entry=1, interrupts=0, interrupter_ap=0,
                      interrupted_ap=6, first="B", locked_out=None)]})),
]
# 3b. TMD-INT-3: a reflex interrupting an action taken in its actor's own turn resolves first even with
#     less AP, and locks nobody out; so does any other interrupt of an in-turn action (RULINGS 2026-12-05).
#     An interrupt of a PC's out-of-turn action, a reflex's included, goes by AP (TMD-INT-2).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")),
    act(K("gain_ap", actor="C", amount=4, reflex_only=True)),
    act(K("convert_reflex", actor="C", count=1)),
    act(K("announce", actor="A", label="attack")),
    act(K("interrupt", actor="C", reflex=True, label="dodge"), V("reflex-less-ap-resolves-first", "TMD-INT-3",
        {"events": [E(event="interrupt_declared", character="C", entry=1, interrupts=0, interrupter_ap=0,
                      interrupted_ap=14, first="C", locked_out=None)],
         "state": {"chain": {"entries": [{"id": 1, "character": "C", "via_reflex": True}, {"id": 0, "character": "A"}],
                             "locked_out": []}}})),
    act(K("resolve"), V("reflex-insert-resolves-before-the-action", "TMD-INT-3",
        {"events": [E(event="resolved", entry=1, character="C", label="dodge")],
         "state": {"chain": {"entries": [{"id": 0, "reasked": True, "closed": False}]}}})),
    act(K("interrupt", actor="B"), V("non-reflex-interrupt-of-in-turn-action-goes-first", "TMD-INT-1 TMD-INT-2",
        {"events": [E(event="interrupt_declared", character="B", entry=2, interrupts=0, interrupter_ap=0,
                      interrupted_ap=14, first="B", locked_out=None)]})),
    act(K("resolve")), act(K("resolve")),
    act(K("gain_ap", actor="D", amount=4, reflex_only=True)),
    act(K("convert_reflex", actor="D", count=1)),
    act(K("gain_ap", actor="B", amount=6)),
    act(K("announce", actor="B", label="out of turn")),
    act(K("interrupt", actor="D", reflex=True), V("reflex-on-out-of-turn-action-goes-by-ap", "TMD-INT-2 TMD-INT-3",
        {"events": [E(event="interrupt_declared", character="D", entry=1, interrupts=0, interrupter_ap=0,
                      interrupted_ap=0, first="B", locked_out="D")]})),
]
# 4. Surprise round (TMD-SUR-1..7, TMD-SCN-5).
SUR = {"attacker": "C", "surprise_attack": True, "undetected": True}
FOUR_IMMUNE = [dict(c, immune_to_surprise=(c["id"] == "A")) for c in FOUR]
S += [
    new(V("surprise-needs-both-conditions", "TMD-SUR-2", err=ill("TMD-SUR-2")),
        characters=FOUR, surprise={"attacker": "C", "surprise_attack": True, "undetected": False}),
    new(V("surprise-round-starts", "TMD-SUR-1 TMD-SUR-5 TMD-SCN-5",
          {"state": {"phase": "surprise", "round": 0, "scene": 1, "current": "C", "order": [],
                     "surprise": {"attacker": "C", "attack_used": False}},
           "events": [E(event="scene_ended", scene=0, reason="surprise_round"),
                      E(event="surprise_round_started", attacker="C"), E(event="scene_started", scene=1),
                      E(event="surprise_reflex_granted", character="A")]}),
        characters=FOUR_IMMUNE, surprise=SUR),
    act(K("begin_combat"), V("surprise-attack-first", "TMD-SUR-1", err=ill("TMD-SUR-1"))),
    act(use("A", "reflex", using="reflex"), V("immune-defender-reflex-at-once", "TMD-SUR-5",
        {"events": [E(event="action_used", character="A", action_type="reflex", spent=["reflex"], out_of_turn=True,
                      ability="drop_prone")]})),
    act(use("B", "reflex", using="reflex"), V("non-immune-no-reflex", "TMD-SUR-5", err=ill("TMD-ACT-10"))),
    act(use("C", "standard", ability="ambush"), V("surprise-one-standard-attack", "TMD-SUR-3 TMD-SUR-4",
        {"events": [E(event="action_used", character="C", action_type="standard", spent=["standard"],
                      out_of_turn=False, ability="ambush"),
                    E(event="surprise_attack", attacker="C", caught_off_guard=["B"], immune=["A"])],
         "state": {"surprise": {"attack_used": True}}})),
    act(use("C", "standard"), V("surprise-attacks-once", "TMD-SUR-3", err=ill("TMD-SUR-3"))),
    act(K("begin_combat"), V("combat-begins-after-surprise", "TMD-SUR-7 TMD-INI-1 TMD-INI-7",
        {"state": {"phase": "delays", "round": 1, "order": ["C", "A", "B", "D"]}}), rolls=[1, 1, 9, 1]),
    act(K("begin_combat"), V("only-one-surprise-round", "TMD-SUR-7", err=ill("TMD-SUR-7"))),
    act(K("start_turns")),
    act(conv("C", "standard")),
    act(use("C", "standard", ability="ambush"), V("surprise-shares-round-1-budget", "TMD-SUR-6 TMD-AP-10",
        err=ill("TMD-AP-10"))),
    act(use("C", "standard", ability="ambush", uses_per_round=2), V("stated-uses-per-round", "TMD-AP-10 TMD-SUR-6",
        {"events": [E(event="action_used", character="C", action_type="standard", spent=["standard"],
                      out_of_turn=False, ability="ambush")]})),
]
# 5. Free actions (TMD-ACT-1..4), effects (TMD-TIME-3), scenes (TMD-SCN-1..4).
TWO = [{"id": "A", "side": "pc", "base_initiative": 0}, {"id": "B", "side": "npc", "base_initiative": 0}]
free = lambda c, **kw: K("use_free", actor=c, **kw)
S += [
    new(characters=TWO, rolls=[10, 1]),
    act(K("start_turns")),
    act(free("A"), V("free-action", "TMD-ACT-1", {"events": [E(event="free_action_used", character="A", purpose="free",
                                                                source="basic")]})),
    act(free("A"), V("free-action-once-per-round", "TMD-ACT-3", err=ill("TMD-ACT-3"))),
    act(free("A", purpose="attack", source="resource_a")),
    act(free("A", purpose="attack", source="resource_b"), V("ACT-4-EXAMPLE-different-sources", "TMD-ACT-4",
        {"events": [E(event="free_action_used", character="A", purpose="attack", source="resource_b")]})),
    act(free("A", purpose="attack", source="resource_a"), V("same-purpose-and-source-is-same", "TMD-ACT-4 TMD-ACT-3",
        err=ill("TMD-ACT-3"))),
    act(free("A", purpose="parry", source="x", uses_per_round=2, timing="on_hit")),
    act(free("A", purpose="parry", source="x", uses_per_round=2, timing="on_hit")),
    act(free("A", purpose="parry", source="x", uses_per_round=2, timing="on_hit"),
        V("count-and-timing-repeatable-to-count", "TMD-ACT-3", err=ill("TMD-ACT-3"))),
    act(free("B"), V("free-action-in-own-turn", "TMD-ACT-2", err=ill("TMD-ACT-2"))),
    act(free("B", timing="when_attacked"), V("free-action-with-timing-out-of-turn", "TMD-ACT-2",
        {"events": [E(event="free_action_used", character="B", purpose="free", source="basic")]})),
    act(K("apply_effect", applier="A", target="B", name="bless", duration="buff_one_round")),
    act(K("apply_effect", applier="A", target="B", name="slow", duration="debuff_one_round")),
    act(K("apply_effect", applier="A", target="A", name="fog", duration="scene")),
    act(end("A"), V("debuff-armed-by-target-turn", "TMD-TIME-3",
        {"events": [TE("A", carried=14), TS("B")],
         "state": {"effects": [{"id": 0, "armed": False}, {"id": 1, "armed": True}, {"id": 2}]}})),
    act(end("B"), V("debuff-ends-at-target-turn-end", "TMD-TIME-3",
        {"events": [E(event="effect_ended", id=1, name="slow", reason="target_turn_end"), TE("B", carried=14),
                    E(event="round_ended", round=1), E(event="round_started", round=2, order=["A", "B"])]})),
    act(K("start_turns"), V("buff-ends-at-applier-turn-start", "TMD-TIME-3",
        {"events": [E(event="turn_order_set", turns=["A", "B"]),
                    E(event="effect_ended", id=0, name="bless", reason="applier_turn_start"),
                    TS("A", extra=14)]})),
    act(K("scene_change"), V("scene-change-ends-scene-effects", "TMD-SCN-1 TMD-SCN-2",
        {"events": [E(event="scene_ended", scene=1, reason="scene_change"),
                    E(event="effect_ended", id=2, name="fog", reason="scene_change"),
                    E(event="scene_started", scene=2)], "state": {"scene": 2, "effects": []}})),
    act(K("teleport", actor="B", observed=True), V("teleport-observed-stays", "TMD-SCN-4",
        {"events": [E(event="teleported_within_scene", character="B")]})),
    act(end("A")),
    act(end("B"), V("two-hours-make-a-new-scene", "TMD-SCN-3 TMD-TIME-1",
        {"events": [TE("B", removed=14, carried=14), E(event="round_ended", round=2),
                    E(event="scene_ended", scene=2, reason="two_hours"), E(event="scene_started", scene=3),
                    E(event="round_started", round=3, order=["A", "B"])], "state": {"scene_seconds": 0}}),
        patch={"scene_seconds": 7188}),
    act(K("teleport", actor="B", observed=False), V("teleport-unobserved-leaves-scene", "TMD-SCN-4",
        {"events": [E(event="left", character="B")], "state": {"order": ["A"]}})),
    act(K("end_encounter"), V("battle-end-is-scene-change", "TMD-SCN-1",
        {"events": [E(event="scene_ended", scene=3, reason="battle_end"), E(event="encounter_ended")],
         "state": {"phase": "ended"}})),
    act(K("start_turns"), V("nothing-after-the-end", "TMD-INI-5", err=ill("TMD-INI-5"))),
    legal(V("legal-after-the-end-is-empty", "TMD-SCN-1", {"actions": []})),
]
# 6. Initiative changes, late joiners, leaving (TMD-INI-3/4/6).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("set_base_initiative", actor="D", base_initiative=10), V("initiative-increase-resorts-later", "TMD-INI-3",
        {"events": [E(event="initiative_changed", character="D", base_initiative=10, resort_at_round_end=True)],
         "state": {"order": ["A", "B", "C", "D"], "resort_pending": True}})),
    act(K("start_turns")),
    act(K("join", characters=[{"id": "E", "side": "npc", "base_initiative": 0}]), V("late-joiner-goes-last", "TMD-INI-4",
        {"state": {"order": ["A", "B", "C", "D", "E"], "queue": ["B", "C", "D", "E"]}}), rolls=[7]),
    act(K("join", characters=[{"id": "F", "side": "beast", "base_initiative": 0},
                              {"id": "G", "side": "beast", "base_initiative": 0}]),
        V("simultaneous-joiners-roll-among-themselves", "TMD-INI-4 TMD-INI-1",
          {"state": {"order": ["A", "B", "C", "D", "E", "G", "F"]}}), rolls=[2, 9]),
    act(end("A")), act(end("B")), act(end("C")), act(end("D")), act(end("E")), act(end("G")),
    act(end("F"), V("round-start-resort-and-joiners-slotted", "TMD-INI-3 TMD-INI-4",
        {"state": {"order": ["D", "A", "B", "C", "G", "F", "E"], "resort_pending": False}}), rolls=[3, 4, 6]),
    act(K("delay", actor="A", after="C")),
    act(K("leave", actor="C"), V("delay-target-leaves-delayer-keeps-turn", "TMD-INI-6",
        {"state": {"delays": [], "order": ["D", "A", "B", "G", "F", "E"]}})),
    act(K("start_turns"), V("turn-order-after-leave", "TMD-INI-6",
        {"events": [E(event="turn_order_set", turns=["D", "A", "B", "G", "F", "E"]), TS("D", extra=14)]})),
]
# 7. Grants, retained actions, per-round ability limits (TMD-AP-10/14/15).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("grant", actor="A", action_type="standard")),
    act(K("set_disabled", actor="B", action_type="standard", disabled=True)),
    act(K("grant", actor="B", action_type="standard")),
    act(K("start_turns"), V("granted-action-at-turn-start", "TMD-AP-15",
        {"events": [E(event="turn_order_set", turns=["A", "B", "C", "D"]), TS("A"),
                    E(event="action_granted", character="A", action_type="standard", gained=True)],
         "state": {"converting": True}})),
    act(conv("A", "standard"), V("granted-counts-as-converted", "TMD-AP-15 TMD-AP-7", err=ill("TMD-AP-7"))),
    act(conv("A", "move")),
    act(K("retain", actor="A", action_type="move", ability="counter")),
    act(use("A", "move"), V("retained-action-occupied", "TMD-AP-14", err=ill("TMD-AP-14"))),
    act(use("A", "move", ability="counter"), V("ability-uses-its-retained-action", "TMD-AP-14",
        {"events": [E(event="action_used", character="A", action_type="move", spent=["move"], out_of_turn=False,
                      ability="counter")]})),
    act(use("A", "standard", ability="slash")),
    act(end("A")),
    act(end("B"), V("grant-needs-convertibility", "TMD-AP-15 TMD-AP-12",
        {"events": [TE("B", carried=14), TS("C")]})),
]
# The grant check for B happened at its turn start; capture it explicitly.
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("set_disabled", actor="A", action_type="standard", disabled=True)),
    act(K("grant", actor="A", action_type="standard")),
    act(K("start_turns"), V("grant-not-gained-when-unconvertible", "TMD-AP-15 TMD-AP-12",
        {"events": [E(event="turn_order_set", turns=["A", "B", "C", "D"]), TS("A"),
                    E(event="action_granted", character="A", action_type="standard", gained=False)]})),
    act(use("A", "standard", using="standard"), V("lost-ability-cannot-use", "TMD-AP-12", err=ill("TMD-AP-12"))),
]
# 9. Audit fixes and edges.
# 9a. A delay target may itself delay. The seed forbids only a second delay onto one
#     target and a delay onto a character that has already delayed (TMD-INI-5.4/5.5); nothing stops
#     a target from delaying (was refused here, "a delay target cannot delay itself"). Each delayer
#     acts right after its target's turn, wherever that turn falls: A after B, B after C and C after D
#     play D, C, B, A.
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("delay", actor="A", after="B")),
    act(K("delay", actor="B", after="C"), V("delay-target-may-delay", "TMD-INI-5",
        {"events": [E(event="delay_declared", character="B", after="C")],
         "state": {"delays": [E(character="A", after="B"), E(character="B", after="C")], "delay_cursor": 2}})),
    act(K("delay", actor="C", after="D"), V("delay-chain-third-link", "TMD-INI-5",
        {"events": [E(event="delay_declared", character="C", after="D")]})),
    act(K("start_turns"), V("delay-chain-turn-order", "TMD-INI-5 TMD-INI-6",
        {"events": [E(event="turn_order_set", turns=["D", "C", "B", "A"]), TS("D")],
         "state": {"order": ["A", "B", "C", "D"], "queue": ["C", "B", "A"]}})),
]
# 9a'. Two delays onto different targets, neither a delayer: each delayer follows its own target.
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("delay", actor="A", after="B")),
    act(K("delay", actor="C", after="D")),
    act(K("start_turns"), V("two-delays-turn-order", "TMD-INI-5 TMD-INI-6",
        {"events": [E(event="turn_order_set", turns=["B", "A", "D", "C"]), TS("B")],
         "state": {"order": ["A", "B", "C", "D"]}})),
]
# 9b. Out-of-turn reflex conversions: the limit does not depend on how the conversions are split
#     into calls (turn_start: AP before converting; remaining: AP at hand).
for basis in ("turn_start", "remaining"):
    tag = basis.replace("_", "-")
    S += [
        new(characters=FOUR, rolls=[5, 5, 5, 5], variants={"conversion_ap_basis": basis}),
        act(K("start_turns")),
        act(K("gain_ap", actor="D", amount=6, reflex_only=True)),
        act(K("convert_reflex", actor="D", count=1), V("reflex-conversion-split-1-" + tag, "TMD-AP-4 TMD-AP-8",
            {"events": [E(event="converted", character="D", action_type="reflex", count=1, ap_spent=2)]})),
    ]
    if basis == "turn_start":
        S += [
            act(K("convert_reflex", actor="D", count=1), V("reflex-conversion-split-2-turn-start",
                "TMD-AP-4 TMD-AP-8", {"events": [E(event="converted", character="D", action_type="reflex", count=1,
                                                    ap_spent=2)],
                                      "state": {"characters": [{}, {}, {}, {"reflex_only_ap": 2,
                                                                        "reflexes": [2, 2]}]}})),
            act(K("convert_reflex", actor="D", count=1), V("reflex-conversion-limit-at-6-ap", "TMD-AP-8",
                err=ill("TMD-AP-8"))),
        ]
    else:
        S += [act(K("convert_reflex", actor="D", count=1), V("reflex-conversion-split-2-remaining",
                  "TMD-AP-8", err=ill("TMD-AP-7")))]
# 9c. A leaver's effects: effects on it end; its one-round debuff and scene effect on others stay
#     (TMD-TIME-3, TMD-SCN-2, TMD-INI-6); its one-round buff ends (its end can no longer come).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")),
    act(K("apply_effect", applier="A", target="D", name="slow", duration="debuff_one_round")),
    act(K("apply_effect", applier="A", target="D", name="bless", duration="buff_one_round")),
    act(K("apply_effect", applier="A", target="D", name="fog", duration="scene")),
    act(K("apply_effect", applier="B", target="A", name="mark", duration="debuff_one_round")),
    act(K("leave", actor="A"), V("leaver-debuff-on-other-stays", "TMD-TIME-3 TMD-INI-6 TMD-SCN-2",
        {"events": [E(event="effect_ended", id=3, name="mark", reason="left"),
                    E(event="effect_ended", id=1, name="bless", reason="applier_left"),
                    E(event="left", character="A"), TS("B")],
         "state": {"effects": [{"id": 0, "applier": "A", "target": "D"}, {"id": 2, "applier": "A", "target": "D"}]}})),
    act(end("B")), act(end("C")),
    act(end("D"), V("leaver-debuff-ends-at-target-turn-end", "TMD-TIME-3",
        {"events": [E(event="effect_ended", id=0, name="slow", reason="target_turn_end"), TE("D", carried=14),
                    E(event="round_ended", round=1), E(event="round_started", round=2, order=["B", "C", "D"])]})),
    act(K("scene_change"), V("leaver-scene-effect-ends-with-scene", "TMD-SCN-2",
        {"events": [E(event="scene_ended", scene=1, reason="scene_change"),
                    E(event="effect_ended", id=2, name="fog", reason="scene_change"),
                    E(event="scene_started", scene=2)]})),
]
# 9d. Durations applied mid-turn (TMD-TIME-3 + RULINGS): a debuff applied during the target's own turn
#     lasts to the end of its *next* turn; a buff applied out of turn before the applier's turn ends when
#     that turn starts.
S += [
    new(characters=TWO, rolls=[10, 1]),
    act(K("start_turns")),
    act(K("apply_effect", applier="B", target="A", name="slow", duration="debuff_one_round")),
    act(K("apply_effect", applier="B", target="A", name="haste", duration="buff_one_round")),
    act(end("A"), V("debuff-in-target-turn-survives-that-turn", "TMD-TIME-3",
        {"events": [TE("A", carried=14), E(event="effect_ended", id=1, name="haste", reason="applier_turn_start"),
                    TS("B")]})),
    act(end("B")),
    act(K("start_turns")),
    act(end("A"), V("debuff-in-target-turn-ends-next-turn", "TMD-TIME-3",
        {"events": [E(event="effect_ended", id=0, name="slow", reason="target_turn_end"),
                    TE("A", removed=14, carried=14), TS("B", extra=14)]})),
]
# 9e. AP economy edges: a 1-AP leftover raises next turn's limits (15 AP: 6 tricks, 3 swifts, 2 moves);
#     retained actions survive the round end (TMD-AP-14) while held ones are removed (TMD-AP-9).
S += [
    new(characters=TWO, rolls=[10, 1]),
    act(K("start_turns")),
    act(conv("A", "standard")), act(conv("A", "move")), act(conv("A", "trick")),
    act(K("retain", actor="A", action_type="move", ability="counter")),
    act(end("A"), V("leftover-1-ap-carried", "TMD-AP-2 TMD-AP-3", {"events": [TE("A", carried=1), TS("B")]})),
    act(end("B"), V("retained-survives-round-end", "TMD-AP-14 TMD-AP-9",
        {"events": [TE("B", carried=14), E(event="actions_removed", character="A", count=2),
                    E(event="round_ended", round=1), E(event="round_started", round=2, order=["A", "B"])],
         "state": {"characters": [{"retained": [{"action_type": "move", "ability": "counter"}],
                                   "held": {"trick": 0, "swift": 0, "move": 0, "acrobatic": 0, "standard": 0}}, {}]}})),
    act(K("start_turns")),
    act(conv("A", "trick", 6), V("six-tricks-at-15-ap", "TMD-AP-8 TMD-AP-3",
        {"events": [E(event="converted", character="A", action_type="trick", count=6, ap_spent=6)]})),
    act(conv("A", "swift", 4), V("four-swifts-at-15-ap-refused", "TMD-AP-8", err=ill("TMD-AP-8"))),
    act(use("A", "move", ability="counter"), V("retained-used-next-round", "TMD-AP-14",
        {"events": [E(event="action_used", character="A", action_type="move", spent=["move"], out_of_turn=False,
                      ability="counter")]})),
]
# 9f. A round-start re-sort (TMD-INI-4 joiners; TMD-INI-3) keeps ties already broken among unchanged
#     characters (was: re-rolled them, needing extra dice and possibly swapping them); a joiner tying
#     with them re-rolls with the whole tie group (TMD-INI-2). The re-rolls (A 6, C 4, E 8): E beat A and
#     A beat C, so E, A, C (was: C, A, E, the npc places filled in the side's order against both re-rolls).
TIE3 = [{"id": "A", "side": "pc", "base_initiative": 0}, {"id": "C", "side": "npc", "base_initiative": 0},
        {"id": "D", "side": "npc", "base_initiative": -5}]
for e_roll, rolls, expect in (
        (1, [3], {"state": {"order": ["C", "A", "E", "D"]},
                  "events": [TE("E", carried=14), E(event="round_ended", round=1),
                             E(event="initiative_rolled", reason="round_start", entries=[
                                 E(id="C", side="npc", base_initiative=0, roll=5, total=5, tiebreaks=[9]),
                                 E(id="A", side="pc", base_initiative=0, roll=5, total=5, tiebreaks=[2]),
                                 E(id="E", side="npc", base_initiative=0, roll=3, total=3, tiebreaks=[]),
                                 E(id="D", side="npc", base_initiative=-5, roll=5, total=0, tiebreaks=[])]),
                             E(event="round_started", round=2, order=["C", "A", "E", "D"])]}),
        (1, [5, 4, 6, 8], {"state": {"order": ["E", "A", "C", "D"], "characters": [{"id": "A", "tiebreaks": [6]}, {"id": "C", "tiebreaks": [4]}, {}, {"id": "E", "tiebreaks": [8]}]}})):
    S += [
        new(characters=TIE3, rolls=[5, 5, 5, 2, 9]),
        act(K("start_turns")),
        act(K("join", characters=[{"id": "E", "side": "npc", "base_initiative": 0}]), rolls=[e_roll]),
        act(end("C")), act(end("A")), act(end("D")),
        act(end("E"), V("resort-keeps-broken-ties" if len(rolls) == 1 else "resort-joiner-tie-rerolls-group",
                        "TMD-INI-4 TMD-INI-2 TMD-INI-6", expect), rolls=rolls),
    ]
# 9g. TMD-AP-4: out-of-turn-only AP not converted when gained converts at the usual time, the start of
#     the character's own turn (was refused in one's own turn, then removed at its end).
S += [
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns")),
    act(K("gain_ap", actor="D", amount=6, reflex_only=True)),
    act(end("A")), act(end("B")),
    act(end("C"), V("turn-start-shows-reflex-only-ap", "TMD-AP-4 TMD-AP-2",
        {"events": [TE("C", carried=14), E(event="turn_started", character="D", base_ap=14, extra_ap=0, reflex_only_ap=6,
                                           ap_lost_to_overdraw=0, blocked=[])]})),
    act(K("convert_reflex", actor="D", count=2), V("reflex-only-ap-converts-at-own-turn-start", "TMD-AP-4",
        {"events": [E(event="converted", character="D", action_type="reflex", count=2, ap_spent=4)],
         "state": {"characters": [{}, {}, {}, {"reflex_only_ap": 2, "base_ap": 14, "reflexes": [2, 2]}]}})),
    act(K("convert_reflex", actor="D", count=1), V("own-turn-reflex-conversion-limit", "TMD-AP-4 TMD-AP-8",
        err=ill("TMD-AP-8"))),
    act(K("gain_ap", actor="D", amount=2, reflex_only=True)),
    act(K("use_free", actor="D")),
    # RULINGS 2026-12-05: a free action does not close the conversion window: the
    # conversion is still tried and only the swift/reflex limit refuses it.
    act(K("convert_reflex", actor="D", count=1), V("own-turn-free-action-keeps-conversion-window", "TMD-AP-6 TMD-AP-8",
        err=ill("TMD-AP-8"))),
    act(use("D", "reflex"), V("own-turn-reflexes-not-usable-in-turn", "TMD-AP-4 TMD-ACT-10", err=ill("TMD-ACT-10"))),
    act(end("D"), V("reflexes-from-own-turn-kept-out-of-turn", "TMD-AP-4 TMD-AP-3",
        {"events": [TE("D", carried=14, ro=4), E(event="round_ended", round=1),
                    E(event="round_started", round=2, order=["A", "B", "C", "D"])],
         "state": {"characters": [{}, {}, {}, {"reflexes": [2, 2], "reflex_only_ap": 0}]}})),
]
# 9h. TMD-INI-3: an increase during the surprise round is used by begin_combat's roll; no re-sort is left
#     pending for the end of round 1 (was: pending, and a spurious round-start re-sort).
S += [
    new(characters=FOUR, surprise={"attacker": "C", "surprise_attack": True, "undetected": True}),
    act(K("set_base_initiative", actor="D", base_initiative=10), V("surprise-initiative-increase-no-resort",
        "TMD-INI-3 TMD-SUR-7", {"events": [E(event="initiative_changed", character="D", base_initiative=10,
                                             resort_at_round_end=False)], "state": {"resort_pending": False}})),
    act(use("C", "standard")),
    act(K("begin_combat"), V("surprise-increase-used-at-combat-start", "TMD-INI-3 TMD-INI-1",
        {"state": {"order": ["D", "A", "B", "C"], "resort_pending": False}}), rolls=[5, 5, 5, 5]),
]
# 9i. RULINGS AP: left-over base AP becomes extra AP usable out of turn (reflexes), limited like any
#     conversion (14 AP: 3 swift/reflex), and what is left counts at the next turn start.
S += [
    new(characters=TWO, rolls=[10, 1]),
    act(K("start_turns")),
    act(end("A")),
    act(K("convert_reflex", actor="A", count=3), V("carried-extra-ap-to-reflexes-out-of-turn",
        "TMD-AP-2 TMD-AP-3 TMD-AP-8", {"events": [E(event="converted", character="A", action_type="reflex", count=3,
                                                    ap_spent=6)],
                                       "state": {"characters": [{"extra_ap": 8, "reflexes": [2, 2, 2]}, {}]}})),
    act(K("convert_reflex", actor="A", count=1), V("carried-extra-ap-reflex-limit", "TMD-AP-8", err=ill("TMD-AP-8"))),
    act(use("A", "reflex"), V("reflex-from-carried-ap-drop-prone", "TMD-ACT-10",
        {"events": [E(event="action_used", character="A", action_type="reflex", spent=["reflex"], out_of_turn=True,
                      ability="drop_prone")]})),
    act(end("B"), V("reflexes-from-carried-ap-kept-to-next-round-end", "TMD-AP-9",
        {"state": {"characters": [{"reflexes": [2, 2]}, {}]}})),
    act(K("start_turns"), V("carried-ap-left-counts-at-next-turn", "TMD-AP-2 TMD-AP-3",
        {"events": [E(event="turn_order_set", turns=["A", "B"]), TS("A", extra=8)],
         "state": {"characters": [{"conversion_basis": 22}, {}]}})),
]
# 9j. Overdraw in the surprise round (was refused for everyone): a defender may overdraw a next-round
#     action (TMD-AP-11, TMD-ACT-10); the attacker may not (TMD-SUR-3).
S += [
    new(characters=FOUR, surprise={"attacker": "C", "surprise_attack": True, "undetected": True}),
    act(K("overdraw", actor="A", action_type="move"), V("surprise-defender-overdraws", "TMD-AP-11 TMD-ACT-10",
        {"events": [E(event="overdrawn", character="A", action_type="move", ap_owed=4),
                    E(event="action_used", character="A", action_type="move", spent=[], out_of_turn=True,
                      ability="overdraw")]})),
    act(K("overdraw", actor="C", action_type="standard"), V("surprise-attacker-cannot-overdraw", "TMD-SUR-3",
        err=ill("TMD-SUR-3"))),
    act(use("C", "standard")),
    act(K("begin_combat"), rolls=[5, 5, 5, 5]),
    act(K("start_turns"), V("surprise-overdraw-costs-first-turn", "TMD-AP-11",
        {"events": [E(event="turn_order_set", turns=["A", "B", "C", "D"]), TS("A", base=10, lost=4, blocked=["move"])]})),
]
# 8. Untrusted states.
S += [
    {"call": "tmd.encounter_act", "args": {"state": {}, "action": {"type": "start_turns"}},
     "v": V("state-garbage", "TMD-TIME-5", err={"code": "invalid_data"})},
    {"call": "tmd.encounter_legal_actions", "args": {"state": "not a state"},
     "v": V("legal-state-garbage", "TMD-TIME-5", err={"code": "invalid_data", "field": "state"})},
    new(characters=FOUR, rolls=[5, 5, 5, 5]),
    act(K("start_turns"), V("state-bad-format", "TMD-TIME-5", err={"code": "invalid_data", "field": "state.format"}),
        patch={"format": 2}),
    act(K("start_turns"), V("state-order-not-permutation", "TMD-TIME-5", err={"code": "invalid_data", "field": "state.order"}),
        patch={"order": ["A", "A", "B", "C"]}),
    act(K("start_turns"), V("state-ap-out-of-range", "TMD-AP-2", err={"code": "invalid_data"}),
        patch={"characters": "__A_base_ap_huge__"}),
    act(K("bogus"), V("action-unknown-kind", "TMD-TIME-2", err={"code": "invalid_argument", "field": "action.type"})),
    {"call": "tmd.encounter_new", "args": {"characters": []},
     "v": V("new-needs-characters", "TMD-INI-1", err={"code": "invalid_argument", "field": "characters"})},
]


def main():
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    # Resolve patches: they need the previous state, so run step by step in batches.
    steps_out = []
    prev = None
    script = []
    # First pass without patches to learn states; patches are applied by re-running up to that step.
    vectors = []
    for i, st in enumerate(S):
        call = {"call": st["call"], "args": json.loads(json.dumps(st["args"]))}
        script.append(call)
    results = run(root, script, S)
    for st, (args, outcome) in zip(S, results):
        v = st.get("v")
        if not v:
            continue
        case = {"id": v["id"], "rule": v["rule"], "call": st["call"], "args": args}
        if v["err"] is not None:
            case["expect_error"] = v["err"]
        else:
            case["expect"] = v["expect"]
        vectors.append(case)
        ok = outcome.startswith("OK")
        if ok == (v["err"] is not None):
            print("MISMATCH", v["id"], outcome[:300], file=sys.stderr)
    with open(os.path.join(HERE, "encounter.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in vectors) + "\n]\n")
    print(len(vectors), "vectors")


def run(root, script, S):
    """Run the script step by step, applying patches to the previous state."""
    out = []
    prev = None
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", "/tmp/target-tmd")
    # Play everything in one process per patched segment: simplest is one step per call to keep patches exact.
    batch = []
    for st in S:
        args = json.loads(json.dumps(st["args"]))
        batch.append((st, args))
    # Execute sequentially with a single cargo process per step group without patches.
    i = 0
    while i < len(batch):
        j = i
        group = []
        while j < len(batch):
            st, args = batch[j]
            if st.get("patch") and j != i:
                break
            group.append((st, args))
            j += 1
            if st.get("patch"):
                break
        # Materialize the first step's state and patch it here.
        first_st, first_args = group[0]
        if first_args.get("state") == "$prev" and first_st.get("patch"):
            s = json.loads(json.dumps(prev))
            for k, val in first_st["patch"].items():
                if val == "__A_base_ap_huge__":
                    s["characters"][0]["base_ap"] = 100001
                else:
                    s[k] = val
            first_args["state"] = s
        elif first_args.get("state") == "$prev":
            first_args["state"] = prev
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tf:
            json.dump([{"call": st["call"], "args": a} for st, a in group], tf, ensure_ascii=False)
            path = tf.name
        env["TMD_SCRIPT"] = path
        r = subprocess.run(["cargo", "test", "-q", "-p", "gunbai", "--lib", "vector_gen", "--", "--ignored",
                            "--nocapture"], cwd=root, env=env, capture_output=True, text=True)
        lines = [l for l in r.stdout.splitlines() if l.startswith(("ARGS ", "OK ", "ERR "))]
        if len(lines) != 2 * len(group):
            print(r.stdout[-2000:], r.stderr[-2000:], file=sys.stderr)
            raise SystemExit("vector_gen output mismatch")
        for k in range(len(group)):
            args = json.loads(lines[2 * k][5:])["args"]
            outcome = lines[2 * k + 1]
            out.append((args, outcome))
            if outcome.startswith("OK "):
                res = json.loads(outcome[3:])
                if "state" in res:
                    prev = res["state"]
            os.unlink(path) if k == len(group) - 1 else None
        i = j
    return out


if __name__ == "__main__":
    main()
