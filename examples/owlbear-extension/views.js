// Hidden information (the core's views): what a player's page may be shown of
// an engine state and of the events of an action. The core decides what is
// hidden (`<module>.<x>View` / a handle's `view(viewer, events)`; World Trigger:
// another team's members in Stealth have no square, WT-ST-1, WT-MAP-7); these
// helpers only route its answer to what the page shows. A view is never loaded
// back as a state (a World Trigger view is not a loadable state).

/**
 * What two views of one state (or of one action's events) both show: a view
 * only leaves fields out, so this keeps the fields present in both.
 */
export function common(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => common(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    return Object.fromEntries(Object.keys(a).filter((k) => k in b).map((k) => [k, common(a[k], b[k])]));
  }
  return a;
}

/**
 * The view of `state` (and `events`, the action's that led to it) for `viewer`
 * through handle `h` (holding `state`): the core's, for a viewer the encounter
 * has; for anyone else (a player without a combatant here) only what every
 * viewer may see. `viewers`: every viewer, as the view operations take them.
 */
export function viewThrough(h, state, viewer, events, viewers) {
  const one = (v) => h.view(v, events);
  if (viewers.includes(viewer)) return one(viewer);
  const seen = viewers.map(one);
  if (!seen.length) return events ? { state, events } : { state };
  return seen.reduce((a, b) => (events ? { state: common(a.state, b.state), events: common(a.events, b.events) } : { state: common(a.state, b.state) }));
}

/**
 * Whose move it is as `viewer` may know it, through handle `h`: the core's
 * `turnFor(viewer)` for a viewer the encounter has (World Trigger: a reaction of a
 * member in Stealth the team may not see names nobody, WT-ST-1); for anyone else
 * only what every viewer's turn names (an entry some viewer's turn leaves unnamed
 * names nobody). The GM (viewer null) sees the whole turn.
 */
export function turnThrough(h, viewer, viewers) {
  if (viewer === null) return h.turn;
  if (viewers.includes(viewer)) return h.turnFor(viewer);
  const seen = viewers.map((v) => h.turnFor(v));
  if (!seen.length) return h.turn;
  const named = (a, i) => seen.every((t) => t.active[i]?.id === a.id);
  return { ...seen[0], active: seen[0].active.map((a, i) => (named(a, i) ? a : { ...a, id: null })) };
}

/** The members a view leaves without the square the state gives them. */
export function hiddenMembers(state, view) {
  return new Set((state?.members ?? []).filter((m, i) => m.at && !view?.members?.[i]?.at).map((m) => String(m.id)));
}

/**
 * What of an action each viewer may not see, for its log entry (computed on
 * the GM's client right after the action, with the state it led to, held by
 * `h`): the core's view of its events and of the action itself for each viewer
 * they are redacted for (`hidden`: the events, `actions`: the action). Both empty
 * when it hides nothing.
 */
export function secretsOf(h, action, events, viewers) {
  const hidden = {};
  const actions = {};
  for (const v of viewers) {
    const seen = h.view(v, events, action ?? undefined);
    // (a view only leaves fields out)
    const redacted = JSON.stringify(seen.events ?? []) !== JSON.stringify(events ?? []) || Object.keys(seen.action ?? {}).length !== Object.keys(action ?? {}).length;
    if (!redacted) continue;
    hidden[v] = seen.events ?? [];
    if (action) actions[v] = seen.action;
  }
  return { hidden, actions };
}

/**
 * A log entry as `viewer` may see it (null: the GM): its events and its action as
 * the core's view has them for that viewer, and whether anything of it is hidden.
 */
export function entryFor(entry, viewer, viewers) {
  const hidden = entry?.hidden ?? {};
  const keys = Object.keys(hidden);
  const action = entry?.action ?? null;
  if (viewer === null || !keys.length) return { events: entry?.events ?? [], action, secret: false };
  // (an entry recorded without the action's views shows no action to those it hides from)
  const actionOf = (k) => (action ? entry.actions?.[k] ?? null : null);
  if (keys.includes(viewer)) return { events: hidden[viewer], action: actionOf(viewer), secret: true };
  if (viewers.includes(viewer)) return { events: entry.events ?? [], action, secret: false };
  return { events: keys.map((k) => hidden[k]).reduce(common), action: keys.map(actionOf).reduce(common), secret: true };
}
