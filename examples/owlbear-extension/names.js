// Names in the core's sentences. The core names members, characters and combatants by
// id; the page shows each by its token's name.

/** `text` with every id of `names` (a Map) replaced by its name, the longest id first; not inside a longer Latin word. */
export function namesIn(text, names) {
  const ids = [...names.keys()].filter(Boolean).sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const alt = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return text.replace(new RegExp(`(?<![A-Za-z0-9_])(?:${alt})(?![A-Za-z0-9_])`, "g"), (m) => names.get(m) ?? m);
}
