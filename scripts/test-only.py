#!/usr/bin/env python3
"""Print the core's test-only sources as git pathspecs that leave them out.

A module declared only under `#[cfg(test)]` (or `#[cfg(all(test, ...))]`) is not part of
any build but a test build, and neither are `core/tests` and `core/benches`: the wasm
entries, the wheel and xtask are keyed on the core's sources without them
(scripts/env.sh `build_sources`), so an edit to a test does not rebuild them. A module
file with a `#[path]` attribute is kept (its file is not where the name says).

    python3 scripts/test-only.py [ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
src = root / "core" / "src"
# Attributes then `mod name;` (the attributes on the lines just before it).
decl = re.compile(r"((?:[ \t]*#\[[^\n]*\]\s*\n)+)[ \t]*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;")
test_cfg = re.compile(r"#\[cfg\((?:test|all\(test\b[^\n]*)\)\]")
out = []
for f in sorted(src.rglob("*.rs")):
    text = f.read_text(encoding="utf-8")
    for m in decl.finditer(text):
        attrs, name = m.group(1), m.group(2)
        if not test_cfg.search(attrs) or "#[path" in attrs:
            continue
        # Where the module's file is: beside a mod.rs / lib.rs, else in a folder named after the file.
        base = f.parent if f.name in ("mod.rs", "lib.rs", "main.rs") else f.parent / f.stem
        for p in (base / f"{name}.rs", base / name):
            if p.exists():
                out.append(p.relative_to(root).as_posix())
for d in ("core/tests", "core/benches"):
    if (root / d).exists():
        out.append(d)
for p in out:
    print(f":(exclude){p}")
