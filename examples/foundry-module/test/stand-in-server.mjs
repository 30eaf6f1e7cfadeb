// The stand-in's SERVER, for the browser tests only (not Foundry's). The test's relay
// passes every change a client sends through `route`, which decides, as Foundry's
// server is documented to, what each other client receives:
//
// * the server, not the client, says who made a change: a chat message's `author` is
//   the sending user; a player's message claiming another author is refused (Foundry:
//   a player may not create a ChatMessage as another user);
// * a JournalEntry's changes go only to GMs and to the users with at least LIMITED
//   ownership of it (ownership NONE: "may not be seen by this User");
// * a chat message goes to every user Foundry's `ChatMessage#visible` shows it to: all
//   users when it is not whispered, and also when it is a whispered ROLL (Foundry shows
//   those to everyone as "rolled privately", so their data reaches every client); a
//   whispered message without rolls goes to its author and its recipients only;
// * Combat changes and `game.socket` messages go to every other client.
//
// What this cannot prove about real Foundry: that its server filters documents and
// whispers exactly so (see the module README, "What the stand-in cannot prove").

/**
 * What `to` receives of the envelope `env` that `from` sent, or null (nothing).
 * @param {any} env
 * @param {{id: string, isGM: boolean}} from the sending client's user (the server knows it)
 * @param {{id: string, isGM: boolean}} to
 * @returns {any | null}
 */
export function route(env, from, to) {
  if (env.kind === "chat") {
    const data = env.data ?? {};
    if (!from.isGM && (data.author ?? from.id) !== from.id) return null; // refused: not the sender's to claim
    const msg = { ...env, user: from.id, data: { ...data, author: data.author ?? from.id } };
    const whisper = msg.data.whisper ?? [];
    const rolls = msg.data.rolls ?? [];
    if (!whisper.length || rolls.length || msg.data.author === to.id || whisper.includes(to.id)) return msg;
    return null;
  }
  if (env.kind === "journal") {
    const ownership = env.op === "create" ? env.data?.ownership : env.ownership;
    if (env.op !== "create" && !from.isGM && !(ownership?.[from.id] >= 3)) return null; // only an owner updates
    if (env.op === "create" && !from.isGM) return null; // only a GM creates one
    if (to.isGM || (ownership?.[to.id] ?? ownership?.default ?? 0) >= 1) return { ...env, user: from.id };
    return null;
  }
  return { ...env, user: from.id };
}
