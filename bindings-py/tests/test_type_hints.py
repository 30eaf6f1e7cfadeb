"""typing.get_type_hints evaluates the annotations of every public function, method and
TypedDict (the generated modules keep them as strings; every name they use must exist at
run time)."""

from __future__ import annotations

import inspect
import sys
import typing

import pytest

import gunbai
from gunbai import types as gtypes


def _public_callables() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    modules = [gunbai, *(getattr(gunbai, m) for m in gunbai.MODULES)]
    if all(m in sys.modules or _importable(m) for m in ("numpy", "pandas", "matplotlib")):
        from gunbai import analysis

        modules.append(analysis)
    for mod in modules:
        for name in getattr(mod, "__all__"):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                found.append((f"{mod.__name__}.{name}", obj))
                for mname, member in vars(obj).items():
                    if mname.startswith("_") and mname != "__init__":
                        continue
                    fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                    if isinstance(fn, property):
                        fn = fn.fget
                    if inspect.isfunction(fn):
                        found.append((f"{mod.__name__}.{name}.{mname}", fn))
            elif inspect.isfunction(obj):
                found.append((f"{mod.__name__}.{name}", obj))
    return found


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


CALLABLES = _public_callables()


def test_the_walk_covers_every_generated_operation() -> None:
    ops = {op["name"] for op in gunbai.catalog()["ops"]}
    walked = {n[len("gunbai."):] for n, _ in CALLABLES}
    missing = sorted(ops - walked)
    assert not missing, missing
    names = {n for n, _ in CALLABLES}
    assert "gunbai.world_trigger.Battle.create" in names
    if "gunbai.analysis.wt_build_sweep" not in names:
        pytest.skip("the analysis extra is not installed")
    assert {"gunbai.analysis.plot_heatmap", "gunbai.analysis.tmd_initiative_odds"} <= names


@pytest.mark.parametrize("name,obj", CALLABLES, ids=[n for n, _ in CALLABLES])
def test_get_type_hints(name: str, obj: object) -> None:
    hints = typing.get_type_hints(obj)
    if inspect.isfunction(obj):
        params = [p for p in inspect.signature(obj).parameters.values() if p.name not in ("self", "cls")]
        for p in params:
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                assert p.name in hints, f"{name}: {p.name} has no annotation"
        assert "return" in hints, f"{name}: no return annotation"


def test_the_issue_example() -> None:
    hints = typing.get_type_hints(gunbai.world_trigger.check)
    assert hints["dice"] is int
    assert hints["return"] is gtypes.WtCheckResult
    assert typing.get_args(hints["target"]) == (int, type(None))


@pytest.mark.parametrize("name", gtypes.__all__)
def test_typeddicts_and_aliases(name: str) -> None:
    obj = getattr(gtypes, name)
    if isinstance(obj, type) and hasattr(obj, "__annotations__"):
        typing.get_type_hints(obj)
