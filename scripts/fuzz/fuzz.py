"""Schema-driven fuzzing of every operation on both surfaces.

Arguments are generated from the catalog's JSON Schemas (and taken from the conformance
vectors: real game states), then mutated: wrong types, edge numbers, extra and missing
keys, deep nesting, long strings, duplicated or emptied lists, corrupt saved states.
Each case runs in Python (the installed ``gunbai``) and in Node (``worker.mjs`` on the
npm package); the run fails on a panic or trap (an ``internal`` error), an exception
other than GunbaiError, a call slower than the hang bound, or any difference between
the two. Before that, a sweep sends one extra key at every object position of every
operation's argument schema (every variant of every enum): it must be refused with
``invalid_argument`` or ``invalid_data`` naming the key (a validation op's violation
naming it counts); a call refused for another reason first (the generated value broke
a rule before the key was read) is counted as not reached; one that succeeds fails.
First of all, every object schema of the catalog (nested ones, tagged unit variants and
result types included) must say ``additionalProperties``, as the reader refuses an
unknown key in every object. Last, hostile calls on the Python game handles
(:func:`fuzz_handles`). It reports, per surface (Python, Node, the Python handles), the
calls made, the corrupt states tried (a saved state with one mutation, given to an
engine's operation or to a handle's ``from_json``) and accepted, by engine, the
exceptions other than GunbaiError (the run fails on any), the largest reply and the
slowest call. A mutated state may still be a valid one (a renamed member), so an accepted
one is counted, not failed.

    python scripts/fuzz/fuzz.py [--seed N] [--count N] [--pkg DIR] [--hang SECONDS]

Deterministic for a seed (unseeded dice are never left to entropy: a ``seed`` is given
wherever the schema has one). Prints its counts.
"""

from __future__ import annotations

import argparse
import copy
import glob
import json
import os
import random
import select
import subprocess
import sys
import time
from typing import Any, Callable

import gunbai

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTRA = "zz_extra"
NEST = "\u0000nest:"
EDGE_NUMBERS = [0, -1, 1, 255, 256, 65535, 65536, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**32,
                2**53 - 1, -(2**53 - 1), 2**64, 10**30, 0.5, -2.5, 1e300]
LONG_STRINGS = ["x" * 1000, "字" * 20000, "x" * 300_000, "\u0000", "", " ", "\U0001F600" * 3]


class Schemas:
    def __init__(self, catalog: dict[str, Any]) -> None:
        self.defs = catalog["defs"]

    def resolve(self, s: Any) -> Any:
        seen = 0
        while isinstance(s, dict) and "$ref" in s and seen < 50:
            s = self.defs[s["$ref"].rsplit("/", 1)[1]]
            seen += 1
        return s

    def branches(self, s: dict[str, Any]) -> list[Any]:
        return list(s.get("oneOf") or s.get("anyOf") or [])

    def types(self, s: dict[str, Any]) -> list[str]:
        t = s.get("type")
        if isinstance(t, list):
            return [x for x in t if x != "null"] or ["null"]
        if isinstance(t, str):
            return [t]
        if "properties" in s:
            return ["object"]
        return []

    def minimal(self, s: Any, rng: random.Random | None = None, depth: int = 0) -> Any:
        """A value of schema ``s`` (required keys only; with ``rng``, random choices
        and some optional keys)."""
        s = self.resolve(s)
        if s is True or not isinstance(s, dict) or depth > 40:
            return None
        if "const" in s:
            return s["const"]
        if "enum" in s:
            return rng.choice(s["enum"]) if rng else s["enum"][0]
        branches = self.branches(s)
        if branches:
            non_null = [b for b in branches if self.resolve(b).get("type") != "null"] or branches
            b = rng.choice(non_null) if rng else non_null[0]
            base = {k: v for k, v in s.items() if k not in ("oneOf", "anyOf")}
            b = self.resolve(b)
            if base.get("properties") and isinstance(b, dict):
                merged = dict(b)
                merged["properties"] = {**base.get("properties", {}), **b.get("properties", {})}
                merged["required"] = base.get("required", []) + b.get("required", [])
                b = merged
            return self.minimal(b, rng, depth + 1)
        if "allOf" in s:
            return self.minimal(s["allOf"][0], rng, depth + 1)
        types = self.types(s)
        t = (rng.choice(types) if rng else types[0]) if types else "null"
        if t == "object":
            out: dict[str, Any] = {}
            props = s.get("properties", {})
            for k, ps in props.items():
                if k in s.get("required", []) or (rng and rng.random() < 0.3) or k == "seed":
                    out[k] = self.minimal(ps, rng, depth + 1)
            if "seed" in props:
                out["seed"] = rng.randrange(1000) if rng else 1
            return out
        if t == "array":
            if "prefixItems" in s:
                return [self.minimal(x, rng, depth + 1) for x in s["prefixItems"]]
            n = s.get("minItems", 0)
            if rng and n == 0 and rng.random() < 0.5:
                n = 1
            return [self.minimal(s.get("items", True), rng, depth + 1) for _ in range(n)]
        if t == "integer":
            lo, hi = s.get("minimum"), s.get("maximum")
            v = rng.randrange(0, 7) if rng else 1
            if lo is not None:
                v = max(v, int(lo))
            if hi is not None:
                v = min(v, int(hi))
            return v
        if t == "number":
            return 1
        if t == "string":
            return "a" * max(1, s.get("minLength", 1))
        if t == "boolean":
            return False
        return None

    def sweep(self, s: Any, depth: int = 0, stack: tuple[str, ...] = ()) -> list[tuple[Any, str]]:
        """Every value of ``s`` with one extra key at one object position (each variant
        of each enum visited): ``(value, path of the extra key)``."""
        s = self.resolve(s)
        if not isinstance(s, dict) or depth > 12:
            return []
        out: list[tuple[Any, str]] = []
        branches = self.branches(s)
        if branches:
            base = {k: v for k, v in s.items() if k not in ("oneOf", "anyOf")}
            for b in branches:
                b = self.resolve(b)
                if base.get("properties") and isinstance(b, dict):
                    b = {**b, "properties": {**base["properties"], **b.get("properties", {})},
                         "required": base.get("required", []) + b.get("required", [])}
                out += self.sweep(b, depth + 1, stack)
            return out
        types = self.types(s)
        if "object" in types and "properties" in s:
            base = self.minimal(s)
            if not isinstance(base, dict):
                return out
            out.append(({**base, EXTRA: 1}, EXTRA))
            for k, ps in s["properties"].items():
                key = f"{k}@{id(ps)}"
                if key in stack:
                    continue
                for v, p in self.sweep(ps, depth + 1, stack + (key,)):
                    out.append(({**base, k: v}, f"{k}.{p}" if not p.startswith("[") else f"{k}{p}"))
        elif "array" in types:
            items = s.get("prefixItems")
            if items:
                base = [self.minimal(x) for x in items]
                for i, x in enumerate(items):
                    for v, p in self.sweep(x, depth + 1, stack):
                        val = list(base)
                        val[i] = v
                        out.append((val, f"[{i}].{p}"))
            else:
                n = max(1, s.get("minItems", 0))
                fill = [self.minimal(s.get("items", True)) for _ in range(n - 1)]
                for v, p in self.sweep(s.get("items", True), depth + 1, stack):
                    out.append(([v] + fill, f"[0].{p}"))
        elif "object" in types and isinstance(s.get("additionalProperties"), dict):
            for v, p in self.sweep(s["additionalProperties"], depth + 1, stack):
                out.append(({"k": v}, f"k.{p}"))
        return out


COMBINED = ("$ref", "allOf", "oneOf", "anyOf")


def object_schemas(s: Any, at: str, out: list[tuple[str, dict[str, Any], bool]], shared: bool = False) -> None:
    """Every object schema with ``properties`` at a schema position of ``s``, nested ones
    included: ``(path, schema, shared)``, ``shared`` when its keys are shared with a
    ``$ref`` or branches beside it, or it is a branch of a schema with ``properties``
    of its own (``additionalProperties`` sees only its own ``properties`` there)."""
    if not isinstance(s, dict):
        return
    has_props = isinstance(s.get("properties"), dict)
    if has_props:
        out.append((at, s, shared or any(k in s for k in COMBINED)))
    for k, v in s.items():
        if k in ("properties", "$defs"):
            for name, x in v.items():
                object_schemas(x, f"{at}.{name}", out)
        elif k in ("items", "additionalProperties", "not"):
            object_schemas(v, f"{at}[]", out)
        elif k in ("prefixItems", "oneOf", "anyOf", "allOf") and isinstance(v, list):
            for i, x in enumerate(v):
                object_schemas(x, f"{at}/{k}[{i}]", out, shared=has_props and k != "prefixItems")


def open_object_schemas(catalog: dict[str, Any]) -> tuple[int, list[str]]:
    """How many object schemas the catalog has (defs, and every op's arguments and
    result), and those that do not say ``additionalProperties`` although the reader
    refuses an unknown key in every object (shared ones excepted)."""
    found: list[tuple[str, dict[str, Any], bool]] = []
    for name, d in catalog["defs"].items():
        object_schemas(d, f"defs.{name}", found)
    for op in catalog["ops"]:
        for k in ("args", "result"):
            if k in op:
                object_schemas(op[k], f"{op['name']}.{k}", found)
    return len(found), [at for at, s, shared in found if not shared and "additionalProperties" not in s]


def paths(v: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(v, dict):
        for k, x in v.items():
            out += paths(x, prefix + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += paths(x, prefix + (i,))
    return out


def get(v: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        v = v[p]
    return v


def put(v: Any, path: tuple[Any, ...], x: Any) -> Any:
    if not path:
        return x
    get(v, path[:-1])[path[-1]] = x
    return v


def mutate(args: Any, rng: random.Random) -> tuple[Any, str]:
    v, kind, _ = mutate_at(args, rng)
    return v, kind


def mutate_at(args: Any, rng: random.Random) -> tuple[Any, str, tuple[Any, ...]]:
    """A mutation of ``args``: the value, its kind and the path it touched."""
    v = copy.deepcopy(args)
    ps = paths(v)
    path = rng.choice(ps)
    target = get(v, path)
    kind = rng.choice(["type", "edge", "extra", "missing", "nest", "long", "dup", "empty", "null", "many"])
    if kind == "type":
        v = put(v, path, rng.choice(["x", 1, 1.5, True, None, [], {}, [1], {"a": 1}]))
    elif kind == "edge":
        v = put(v, path, rng.choice(EDGE_NUMBERS))
    elif kind == "extra":
        objs = [p for p in ps if isinstance(get(v, p), dict)]
        if objs:
            path = rng.choice(objs)
            get(v, path)[EXTRA] = rng.choice([1, "a", None, {}])
    elif kind == "missing":
        objs = [p for p in ps if isinstance(get(v, p), dict) and get(v, p)]
        if objs:
            path = rng.choice(objs)
            o = get(v, path)
            del o[rng.choice(sorted(o))]
    elif kind == "nest":
        v = put(v, path, NEST + str(rng.choice([63, 64, 65, 130, 2000, 100_000])))
    elif kind == "long":
        v = put(v, path, rng.choice(LONG_STRINGS))
    elif kind == "dup" and isinstance(target, list) and target:
        i = rng.randrange(len(target))
        target.insert(i, copy.deepcopy(target[i]))
    elif kind == "empty" and isinstance(target, (list, dict)):
        target.clear()
    elif kind == "null":
        v = put(v, path, None)
    elif kind == "many" and isinstance(target, list) and target:
        target.extend(copy.deepcopy(target[0]) for _ in range(rng.choice([100, 5000])))
    return v, kind, path


def expand(v: Any) -> Any:
    if isinstance(v, str) and v.startswith(NEST):
        inner: Any = []
        for _ in range(int(v[len(NEST):]) - 1):
            inner = [inner]
        return inner
    if isinstance(v, list):
        return [expand(x) for x in v]
    if isinstance(v, dict):
        return {k: expand(x) for k, x in v.items()}
    return v


def plain(v: Any) -> Any:
    """A Python result as JSON-shaped values, as the Node worker writes it (numpy arrays
    as lists; a 2-D table part as its columns, as JS gives them)."""
    if hasattr(v, "tolist"):
        if getattr(v, "ndim", 1) == 2:
            return [list(c) for c in v.T.tolist()] if v.size else [[] for _ in range(v.shape[1])]
        return v.tolist()
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def run_py(op: str, batch: bool, args: Any) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        args = expand(args)
        r = gunbai.call_batch(op, args) if batch else gunbai.call(op, args)
        ms = (time.perf_counter() - start) * 1000
        text = json.dumps(plain(r), ensure_ascii=False, separators=(",", ":"))  # as Node writes it
        out: dict[str, Any] = {"ok": json.loads(text), "bytes": len(text.encode())}
    except gunbai.GunbaiError as e:
        ms = (time.perf_counter() - start) * 1000
        error = {"code": e.code, "message": e.message, "field": e.field}
        out = {"error": error, "bytes": len(json.dumps(error).encode())}
    except Exception as e:  # noqa: BLE001 - a failure of the harness's kind
        ms = (time.perf_counter() - start) * 1000
        out = {"exception": f"{type(e).__name__}: {e}", "bytes": 0}
    out["ms"] = ms
    return out


class Stats:
    """Per surface: calls made, exceptions other than GunbaiError, the largest reply
    (bytes of its JSON) and the slowest call."""

    def __init__(self) -> None:
        self.calls = 0
        self.foreign = 0
        self.largest = (0, "")
        self.slowest = (0.0, "")
        # Per engine: saved states mutated (corrupt states tried) and those accepted.
        self.corrupt: dict[str, list[int]] = {}

    def add(self, op: str, out: dict[str, Any], engine: str | None = None) -> None:
        self.calls += 1
        self.foreign += "exception" in out
        self.largest = max(self.largest, (int(out.get("bytes", 0)), op))
        self.slowest = max(self.slowest, (float(out.get("ms", 0.0)), op))
        if engine:
            tally = self.corrupt.setdefault(engine, [0, 0])
            tally[0] += 1
            tally[1] += "ok" in out

    def line(self, surface: str) -> str:
        corrupt = ", ".join(f"{e} {a}/{t}" for e, (t, a) in sorted(self.corrupt.items())) or "none"
        return (f"fuzz {surface}: {self.calls} calls, {self.foreign} exceptions other than GunbaiError, "
                f"largest reply {self.largest[0]:,} bytes ({self.largest[1]}), "
                f"slowest call {self.slowest[0]:.1f} ms ({self.slowest[1]}); "
                f"corrupt states accepted/tried by engine: {corrupt}")


class Node:
    def __init__(self, pkg: str, hang: float) -> None:
        self.hang = hang
        self.proc = subprocess.Popen(
            ["node", os.path.join(ROOT, "scripts", "fuzz", "worker.mjs"), pkg],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
        )

    def run(self, op: str, batch: bool, args: Any) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"op": op, "batch": batch, "args": args}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.hang * 3)
        if not ready:
            self.proc.kill()
            return {"exception": f"hang: no reply within {self.hang * 3:.0f} s", "ms": self.hang * 3000}
        line = self.proc.stdout.readline()
        if not line:
            return {"exception": "the Node worker exited", "ms": 0}
        reply: dict[str, Any] = json.loads(line)
        # The size of the reply: the worker's line (its JSON, with a few bytes of "ms").
        reply["bytes"] = len(line.encode())
        return reply

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def problem(out: dict[str, Any], hang: float) -> str | None:
    if "exception" in out:
        return f"not a GunbaiError: {out['exception'][:300]}"
    if "error" in out and out["error"]["code"] == "internal":
        return f"internal error (panic or trap): {out['error']['message'][:300]}"
    if out["ms"] > hang * 1000:
        return f"took {out['ms'] / 1000:.1f} s (bound {hang} s)"
    return None


def short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + f"… ({len(text)} chars)"


def vector_args() -> dict[str, list[Any]]:
    """Arguments of the conformance vectors by operation (real game states among them)."""
    out: dict[str, list[Any]] = {}
    for f in sorted(glob.glob(os.path.join(ROOT, "testdata", "vectors", "**", "*.json"), recursive=True)):
        with open(f, encoding="utf-8") as fh:
            for case in json.load(fh):
                if isinstance(case.get("args"), dict) and "call" in case:
                    out.setdefault(case["call"], []).append(case["args"])
    return out


HOSTILE: list[Any] = [None, "x", "\ud800", "a\udc00b", 5, -1, 2**64, 1.5, [], {}, {"zz": 1}, "字" * 5000]


def fuzz_handles(rng: random.Random, count: int, hang: float, stats: Stats, failures: list[str]) -> None:
    """Hostile calls on the Python game handles (``testdata/handles/setups.json``):
    mutated actions and saved states, hostile viewers and actors, lone surrogates,
    misspelt keywords, bad listing indexes. Every exception must be a GunbaiError, a
    refused action must leave the state as it was, and no call may pass the hang bound."""
    import pickle

    with open(os.path.join(ROOT, "testdata", "handles", "setups.json"), encoding="utf-8") as fh:
        setups: dict[str, Any] = json.load(fh)
    names = sorted(setups)
    per = max(1, count // len(names))
    for name in names:
        module, cls_name = name.split(".")
        cls = getattr(getattr(gunbai, module), cls_name)
        entry = setups[name]
        if "file" in entry:
            with open(os.path.join(ROOT, entry["file"]), encoding="utf-8") as fh:
                setup = json.load(fh)
        else:
            setup = entry["setup"]
        game = cls.create(**copy.deepcopy(setup))
        for _ in range(per):
            kind = rng.choice(["act", "act", "act_keyword", "legal", "view", "listing", "from_json", "from_text",
                               "undo", "create", "pickle"])
            listed = game.legal_actions()
            action = rng.choice(listed)["action"] if listed else {"type": "x"}
            seed = rng.randrange(1000)
            before = game.to_json()
            acting = False
            engine = None
            call: Callable[[], Any]
            if kind == "act":
                args, _ = mutate({"action": action}, rng) if rng.random() < 0.7 else ({"action": action}, "none")
                args = expand(args) if isinstance(args, dict) else {"action": args}
                acting = True
                call = lambda: game.act(args.get("action"), seed=seed)  # noqa: E731
            elif kind == "act_keyword":
                word = rng.choice(["sed", "rols", "Seed", "action"])
                acting = True
                call = lambda: game.act(action, **{word: seed})  # noqa: E731
            elif kind == "legal":
                actor = rng.choice(HOSTILE)
                call = lambda: game.legal_actions(actor)  # noqa: E731
            elif kind == "view":
                viewer = rng.choice(HOSTILE)
                call = lambda: game.view(viewer, rng.choice([None, [], [{"event": "x"}], "\ud800"]))  # noqa: E731
            elif kind == "listing":
                index = rng.choice([0, -1, 10**6, -(10**6), "0", 1.0, True, None])

                def call_listing() -> Any:
                    listing = game.listing(rng.choice([None, "x", "\ud800"]))
                    return listing.play(index, seed=seed) if rng.random() < 0.5 else listing[index]

                call = call_listing
                acting = True
            elif kind == "from_json":
                state, _, touched = mutate_at({"state": game.state}, rng)
                state = expand(state)
                if touched[:1] == ("state",):
                    engine = f"{module}.{cls_name.lower()}"
                call = lambda: cls.from_json(state.get("state") if isinstance(state, dict) else state)  # noqa: E731
            elif kind == "from_text":
                text = rng.choice([before[:-1] + ',"\ud800":1}', "[" * 5000 + "]" * 5000, before[: len(before) // 2],
                                   before.replace('"', "'", 1), "\ud800"])
                call = lambda: cls.from_json(text)  # noqa: E731
            elif kind == "undo":
                acting = True
                call = game.undo
            elif kind == "create":
                bad, _ = mutate(copy.deepcopy(setup), rng)
                bad = expand(bad)
                call = lambda: cls.create(**bad) if isinstance(bad, dict) else cls.create(bad)  # noqa: E731
            else:
                call = lambda: pickle.loads(pickle.dumps(game)).to_json() == before  # noqa: E731
            start = time.perf_counter()
            refused = False
            try:
                r = call()
                out: dict[str, Any] = {"bytes": len(json.dumps(r, default=str).encode())}
            except gunbai.GunbaiError as e:
                refused = True
                out = {"bytes": len(json.dumps([e.code, e.message, e.field]).encode())}
            except Exception as e:  # noqa: BLE001 - a failure of the harness's kind
                out = {"exception": f"{type(e).__name__}: {e}"[:300]}
            out["ms"] = (time.perf_counter() - start) * 1000
            if engine and not refused and "exception" not in out:
                out["ok"] = True
            stats.add(f"{name}.{kind}", out, engine)
            why = problem(out, hang)
            if why:
                failures.append(f"python handle {name}.{kind}: {why}")
            if refused and acting and game.to_json() != before:
                failures.append(f"python handle {name}.{kind}: a refused call changed the state")
            if len(game.legal_actions()) == 0 or rng.random() < 0.05:
                game = cls.create(**copy.deepcopy(setup))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--count", type=int, default=3000, help="mutated calls per surface")
    ap.add_argument("--pkg", default=os.path.join(ROOT, "bindings-js", "pkg"))
    ap.add_argument("--hang", type=float, default=10.0, help="slowest call allowed, seconds")
    ap.add_argument("--no-node", action="store_true", help="Python only (no difference check)")
    ap.add_argument("--verbose", action="store_true", help="list the extra keys not reached")
    a = ap.parse_args()

    catalog = gunbai.catalog()
    schemas = Schemas(catalog)
    ops = [(o["name"], o["kind"] == "batch", o["args"]) for o in catalog["ops"]]
    node = None if a.no_node else Node(a.pkg, a.hang)
    # Native-only operations (the `odds` feature) are not in the npm package: Python alone.
    with open(os.path.join(a.pkg, "schema.json"), encoding="utf-8") as f:
        in_npm = {o["name"] for o in json.load(f)["ops"]}
    failures: list[str] = []
    counts = {"sweep": 0, "sweep_refused": 0, "sweep_unreached": 0, "calls": 0, "ok": 0, "errors": 0}
    unreached: list[str] = []

    seeded = {name for name, _, schema in ops if "seed" in (schemas.resolve(schema).get("properties") or {})}

    def entropy(op: str, args: Any) -> bool:
        return op in seeded and (not isinstance(args, dict) or (args.get("seed") is None and args.get("rolls") is None))

    stats = {"python": Stats(), "node": Stats()}

    def both(op: str, batch: bool, args: Any, what: str, engine: str | None = None) -> dict[str, Any]:
        py = run_py(op, batch, args)
        for side, out in [("python", py)] + ([("node", node.run(op, batch, args))] if node and op in in_npm else []):
            stats[side].add(op, out, engine)
            why = problem(out, a.hang)
            if why:
                failures.append(f"{side} {op} ({what}): {why}\n    args {short(args)}")
            if side == "node":
                a_, b_ = dict(py), dict(out)
                for k in ("ms", "bytes"):
                    a_.pop(k, None), b_.pop(k, None)
                if op == "meta.operations" and isinstance(a_.get("ok"), dict):
                    # The wheel lists its native-only operations too.
                    ops_ = [n for n in a_["ok"].get("operations", []) if n in in_npm]
                    a_["ok"] = {**a_["ok"], "operations": ops_}
                if entropy(op, args):
                    # No seed and no scripted rolls: each surface rolls its own entropy,
                    # so only the outcome's kind is compared.
                    a_ = {"ok": None} if "ok" in a_ else a_
                    b_ = {"ok": None} if "ok" in b_ else b_
                if a_ != b_:
                    failures.append(f"python and node differ on {op} ({what}):\n    python {short(a_)}\n"
                                    f"    node   {short(b_)}\n    args {short(args)}")
        return py

    # 0. Every object schema, nested ones and result types included, says that it
    # refuses other keys (the sweep below checks that it does).
    n_objects, open_objects = open_object_schemas(catalog)
    for at in open_objects:
        failures.append(f"{at}: an object schema without additionalProperties")

    # 1. One extra key at every object position of every schema.
    for name, batch, schema in ops:
        for value, key_path in schemas.sweep(schema):
            counts["sweep"] += 1
            out = both(name, batch, value, f"extra key at {key_path}")
            err = out.get("error") or {}
            field = err.get("field") or ""
            parent = key_path[: -len(EXTRA)].rstrip(".") or "args"
            # An externally tagged variant given as a second key is refused at the enum
            # ("map with a single key"), which is where it is.
            at_key = field == key_path or ("single key" in err.get("message", "") and field == parent)
            # A validation op reports the key as a violation of its result.
            flagged = any(v.get("path") == key_path for v in (out.get("ok") or {}).get("violations", []) or [])
            if err.get("code") in ("invalid_argument", "invalid_data") and at_key or flagged:
                counts["sweep_refused"] += 1
            elif "error" in out:
                # Refused for something else first (the generated value broke a rule
                # before the key was read): the key was not reached.
                counts["sweep_unreached"] += 1
                unreached.append(f"{name} {key_path}: {err.get('message', '')[:120]}")
            else:
                failures.append(f"{name}: extra key at {key_path} accepted: {short(out)}\n"
                                f"    args {short(value)}")

    # 2. Mutated arguments: from the schema (random choices) and from the vectors.
    rng = random.Random(a.seed)
    vectors = vector_args()
    kinds: dict[str, int] = {}
    for i in range(a.count):
        name, batch, schema = ops[i % len(ops)] if i < len(ops) else rng.choice(ops)
        bases = vectors.get(name, [])
        base = copy.deepcopy(rng.choice(bases)) if bases and rng.random() < 0.6 else schemas.minimal(schema, rng)
        if isinstance(base, dict) and "seed" not in base and "rolls" not in base and \
                "seed" in (schemas.resolve(schema).get("properties") or {}):
            base["seed"] = rng.randrange(1000)
        args, kind, touched = mutate_at(base, rng) if rng.random() < 0.9 else (base, "none", ())
        kinds[kind] = kinds.get(kind, 0) + 1
        # A saved state of an engine with one mutation: a corrupt state tried (`battle`,
        # `encounter`, `round`, `chase`: the engine is the operation's first word).
        engine = None
        if touched[:1] == ("state",) and isinstance(base, dict) and isinstance(base.get("state"), dict):
            module, _, verb = name.partition(".")
            engine = f"{module}.{verb.split('_')[0]}"
        out = both(name, batch, args, f"mutation {kind}", engine)
        counts["calls"] += 1
        counts["ok" if "ok" in out else "errors"] += 1

    if node:
        node.close()

    # 3. Hostile calls on the Python game handles.
    handle_stats = Stats()
    fuzz_handles(rng, max(60, a.count // 5), a.hang, handle_stats, failures)
    surfaces = "Python and Node" if node else "Python"
    if a.verbose:
        for u in unreached:
            print("not reached:", u)
    print(f"fuzz: {n_objects} object schemas, {n_objects - len(open_objects)} with additionalProperties")
    print(f"fuzz (seed {a.seed}, {surfaces}): extra-key sweep {counts['sweep_refused']}/{counts['sweep']} refused "
          f"at the key, {counts['sweep_unreached']} refused earlier for another reason, none accepted; {counts['calls']} mutated calls per surface ({counts['ok']} ok, {counts['errors']} "
          f"GunbaiError); mutations {json.dumps(kinds, sort_keys=True)}")
    for side in ["python"] + (["node"] if node else []):
        print(stats[side].line(side))
    print(handle_stats.line("python handles"))
    if failures:
        for f in failures[:40]:
            print("FAIL", f)
        print(f"{len(failures)} failures")
        return 1
    print("fuzz: no panic, trap, internal error, foreign exception, hang or difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
