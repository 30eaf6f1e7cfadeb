#!/usr/bin/env python3
"""Count the core's non-test lines: every .rs file under core/src (or the folder given),
less the test-only modules (those declared under #[cfg(test)], such as `mod tests;`, and
their files) and the other items under #[cfg(test)] (a `mod tests { ... }` block, a
test-only function), split into code, comment (doc comments included) and blank lines.

    python3 scripts/core-lines.py [DIR]      (default core/src)
    python3 scripts/core-lines.py --by-folder
"""
import pathlib
import re
import sys


def test_modules(root: pathlib.Path) -> set:
    """The files and folders of modules declared as `#[cfg(test)] mod name;`."""
    out = set()
    decl = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;")
    for p in root.rglob("*.rs"):
        for name in decl.findall(p.read_text(encoding="utf-8")):
            base = p.parent if p.name in ("mod.rs", "lib.rs") else p.parent / p.stem
            out.add(base / f"{name}.rs")
            out.add(base / name)
    return out


def strip_cfg_test(text: str) -> str:
    """Drop each item that follows a #[cfg(test)] attribute (to its matching brace or ;)."""
    out, i = [], 0
    pat = re.compile(r"^[ \t]*#\[cfg\(test\)\][^\n]*\n", re.M)
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            break
        out.append(text[i:m.start()])
        j, depth = m.end(), 0
        # the item: up to its first `;` at depth 0, or its `{ ... }` block
        while j < len(text):
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    j += 1
                    break
            elif c == ";" and depth == 0:
                j += 1
                break
            elif c == '"' :
                j += 1
                while j < len(text) and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
            j += 1
        i = j
    return "".join(out)


def count(path: pathlib.Path):
    code = comment = blank = 0
    for line in strip_cfg_test(path.read_text(encoding="utf-8")).splitlines():
        s = line.strip()
        if not s:
            blank += 1
        elif s.startswith("//"):
            comment += 1
        else:
            code += 1
    return code, comment, blank


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = pathlib.Path(args[0] if args else "core/src")
    by_folder = "--by-folder" in sys.argv
    totals, folders = [0, 0, 0], {}
    skip = test_modules(root)
    for p in sorted(root.rglob("*.rs")):
        rel = p.relative_to(root)
        if p in skip or any(parent in skip for parent in p.parents):
            continue
        c = count(p)
        key = rel.parts[0] if len(rel.parts) > 1 else "(top)"
        f = folders.setdefault(key, [0, 0, 0])
        for k in range(3):
            totals[k] += c[k]
            f[k] += c[k]
    if by_folder:
        for k, (c, m, b) in sorted(folders.items()):
            print(f"{k:<24} {c:>7} code {m:>7} comment")
    print(f"{root}: {totals[0] + totals[1]} non-test lines ({totals[0]} code, {totals[1]} comment; {totals[2]} blank lines not counted)")


if __name__ == "__main__":
    main()
