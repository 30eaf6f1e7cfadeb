from typing import Any, final

def call(op: str, args_json: str) -> str: ...
def call_value(op: str, args: object) -> Any: ...
def call_batch(op: str, args_json: str) -> tuple[str, bytearray]: ...
def catalog() -> str: ...
@final
class Game:
    """A game handle: one session of an engine, driven by method name with JSON."""

    def __init__(self) -> None: ...
    def call(self, method: str, args_json: str) -> str: ...

class Unencodable(Exception):
    """Arguments only the package's JSON-text path writes."""

class CoreError(Exception):
    """The core's envelope when it is not ``{"ok":…}`` (``args[0]``)."""

__version__: str
__all__ = ["call", "call_value", "call_batch", "catalog", "Game", "Unencodable", "CoreError", "__version__"]
