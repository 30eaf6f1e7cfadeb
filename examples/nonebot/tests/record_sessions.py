"""Record the expected replies of examples/plugin-sessions.json from a run of the plugin
core (nonebot_plugin_gunbai.core, which calls gunbai's command.run) with the file's
settings and seed. Run after a deliberate change of replies, then review the diff:

    .venv/bin/python examples/nonebot/tests/record_sessions.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The core alone, without the package's NoneBot wiring (which needs a running NoneBot).
_pkg = types.ModuleType("nonebot_plugin_gunbai")
_pkg.__path__ = [str(HERE.parent / "nonebot_plugin_gunbai")]
sys.modules["nonebot_plugin_gunbai"] = _pkg

from nonebot_plugin_gunbai.core import Gunbai, Settings, Store, load_table_pack  # noqa: E402

FILE = HERE.parents[1] / "plugin-sessions.json"


def shipped(spec: str) -> str:
    """The file ``spec`` ("gunbai/data/…") inside the installed gunbai package."""
    from importlib import resources

    return str(resources.files("gunbai").joinpath(spec.split("/", 1)[1]))


def main() -> None:
    data = json.loads(FILE.read_text(encoding="utf-8"))
    c = data["config"]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        pack = load_table_pack(Path(shipped(c["tablePack"]))) if c.get("tablePack") else None
        settings = Settings(system=c["system"], lang=c["language"], group_templates=c.get("groupTemplates"), seed=c["seed"], table_pack=pack,
                            all_lines=c.get("allLines", False))
        engine = Gunbai(settings, store)
        failed: list = []
        for s in data["sessions"]:
            group = s["group"]
            scope = f"group:{group}" if group else f"private:{s['user']}"
            log_name = None
            for line in s["lines"]:
                if line["send"].startswith(".log new "):
                    log_name = line["send"].split(" ", 2)[2]
                outs = engine.handle(scope, s["user"], s["name"], line["send"], group)
                line["replies"] = [{"to": "private" if o.private else "chat", "text": o.text} for o in outs]
                failed.extend(f"{line['send']}: {w}" for w in unmet(line))
            s.pop("log", None)
            if log_name:
                entries = [json.loads(x) for x in store.log_path(scope, log_name).read_text(encoding="utf-8").splitlines()]
                s["log"] = {"name": log_name, "lines": [e["line"] for e in entries],
                            "secret": [e["result"].get("secret") is True for e in entries]}
            card = store.card(scope, s["user"])
            s.pop("card", None)
            if card:
                s["card"] = card
        store.close()
    FILE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"recorded {FILE}")
    if failed:
        # The plugins' tests check the same; the recording is written for review.
        sys.exit("lines whose answer is not what their `expect` states:\n  " + "\n  ".join(failed))


def unmet(line: dict) -> list:
    """What a line's `expect` states that its recorded replies do not show."""
    e = line.get("expect")
    if not e:
        return []
    said = "\n".join(r["text"] for r in line["replies"])
    out = [f"shows no {t!r}" for t in e.get("has", []) if t not in said]
    out += [f"shows {t!r}" for t in e.get("lacks", []) if t in said]
    if e.get("private") and not any(r["to"] == "private" for r in line["replies"]):
        out.append("whispers nothing")
    if bool(e.get("silent")) != (said == ""):
        out.append("answers" if said else "gives no answer")
    return out


if __name__ == "__main__":
    main()
