#!/usr/bin/env python3
"""Where a wasm entry's code bytes go, by Rust module and by trait.

Reads the raw wasm cargo writes (before wasm-bindgen and wasm-opt; it keeps the `name`
section) and sums each function's body size by its name. The figures are raw bytes of
unoptimized-by-wasm-opt code, not gzip bytes: they rank the parts, they do not add up to
an entry's gzip size.
  bash scripts/build-js.sh --only full --cargo-only   # the full entry's raw wasm
  python3 scripts/wasm-sizes.py [WASM] [--depth N] [--top N]
WASM defaults to target/wasm/wasm32-unknown-unknown/wasm/gunbai_js.wasm (the entry cargo
built last there).
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def sections(b):
    i = 8
    while i < len(b):
        sid = b[i]
        n, i = leb(b, i + 1)
        yield sid, b[i : i + n]
        i += n


def functions(b):
    """(name, body size) of every defined function."""
    imported = 0
    bodies = []
    names = {}
    for sid, data in sections(b):
        if sid == 2:  # imports
            count, j = leb(data, 0)
            for _ in range(count):
                for _ in range(2):
                    ln, j = leb(data, j)
                    j += ln
                kind = data[j]
                j += 1
                if kind == 0:
                    _, j = leb(data, j)
                    imported += 1
                elif kind == 1:
                    j += 1
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 2:
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 3:
                    j += 2
        elif sid == 10:  # code
            count, j = leb(data, 0)
            for _ in range(count):
                size, j = leb(data, j)
                bodies.append(size)
                j += size
        elif sid == 0:
            ln, j = leb(data, 0)
            if data[j : j + ln] != b"name":
                continue
            j += ln
            while j < len(data):
                sub = data[j]
                size, j = leb(data, j + 1)
                end = j + size
                if sub == 1:
                    count, k = leb(data, j)
                    for _ in range(count):
                        idx, k = leb(data, k)
                        ln, k = leb(data, k)
                        names[idx] = data[k : k + ln].decode("utf-8", "replace")
                        k += ln
                j = end
    if not names:
        sys.exit("no name section: give the raw wasm cargo wrote, not the package's")
    raw = [names.get(imported + n, f"#{imported + n}") for n in range(len(bodies))]
    return list(zip(demangle(raw), bodies))


def demangle(names):
    """Rust's v0 symbols in plain paths, by llvm-cxxfilt (LLVM's demangler reads them)."""
    tool = shutil.which("llvm-cxxfilt")
    if not tool:
        sys.exit("llvm-cxxfilt is missing (apt install llvm): it demangles the names")
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    return lines if len(lines) == len(names) else names


def owner(name):
    """The path a function belongs to (the self type's, for a method or trait impl), and
    the trait it implements."""
    name = re.sub(r"::h[0-9a-f]{16}$", "", name)
    trait = ""
    m = re.match(r"^<(.+?) as (.+?)>::", name) or re.match(r"^<(.+?)>::", name)
    if m:
        path = m.group(1)
        if m.lastindex == 2:
            trait = re.sub(r"<.*", "", m.group(2)).split("::")[-1]
    else:
        path = name
    m = re.match(r"^core::ptr::drop_in_place::<(.+)>$", path)
    if m:
        path, trait = m.group(1), "Drop"
    path = re.sub(r"^(&|\*const |\*mut |mut |dyn |\[)+", "", path)
    path = re.sub(r"<.*", "", path)
    return path, trait


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wasm", nargs="?", default="target/wasm/wasm32-unknown-unknown/wasm/gunbai_js.wasm")
    ap.add_argument("--depth", type=int, default=4, help="module path components to group by (4)")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    fns = functions(open(a.wasm, "rb").read())
    total = sum(s for _, s in fns)
    by_mod = collections.Counter()
    by_trait = collections.Counter()
    for name, size in fns:
        path, trait = owner(name)
        by_mod["::".join(path.split("::")[: a.depth])] += size
        by_trait[trait or "(inherent or free)"] += size
    print(f"{a.wasm}: {len(fns)} functions, {total:,} code bytes")
    for title, c in (("by module", by_mod), ("by trait", by_trait)):
        print(f"\n{title}:")
        for k, v in c.most_common(a.top):
            print(f"{v:10,} {100 * v / total:5.1f}%  {k}")


if __name__ == "__main__":
    main()
