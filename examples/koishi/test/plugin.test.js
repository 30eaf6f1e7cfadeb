// koishi-plugin-gunbai under Koishi's own test utilities: @koishijs/plugin-mock clients
// send lines in a group (and privately), @koishijs/plugin-database-memory keeps the cards,
// and every reply is checked against examples/plugin-sessions.json (the same sessions
// and replies the NoneBot plugin's test checks). The dice are seeded, so each reply is
// the one gunbai's command.run gives for that roll. GUNBAI_TRANSCRIPT=FILE writes what
// the bot actually sent as a transcript.
'use strict'

const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { App, h } = require('koishi')
const mock = require('@koishijs/plugin-mock').default
const memory = require('@koishijs/plugin-database-memory').default
// GUNBAI_PLUGIN: the installed package instead of this folder's lib (scripts/ci/smoke-plugins.sh).
const gunbai = require(process.env.GUNBAI_PLUGIN ?? '../lib/index.js')

const SESSIONS = JSON.parse(fs.readFileSync(process.env.GUNBAI_SESSIONS ?? path.join(__dirname, '../../plugin-sessions.json'), 'utf8'))
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gunbai-koishi-'))
const transcript = []
let app
let whispers = []

// The text of what the plugin sent (elements, or a string).
const plain = (content) => (Array.isArray(content) ? content : [content])
  .map((e) => (typeof e === 'string' ? e : e.type === 'text' ? e.attrs.content : e.toString())).join('')

before(async () => {
  app = new App()
  app.plugin(mock)
  app.plugin(memory)
  // The config's table pack path is relative to the repository.
  // The sessions' table pack is the illustrative one the installed gunbai package ships.
  const tablePack = SESSIONS.config.tablePack && require.resolve(SESSIONS.config.tablePack)
  app.plugin(gunbai, { ...SESSIONS.config, logDir, tablePack })
  await app.start()
  // A whisper goes through the platform's private message: record it.
  const bot = app.bots[0]
  bot.sendPrivateMessage = async (userId, content) => { whispers.push({ userId, text: plain(content) }); return [] }
})
after(async () => {
  // (app.stop() is left out: plugin-mock's bot throws while Koishi tears it down)
  if (process.env.GUNBAI_TRANSCRIPT) fs.writeFileSync(process.env.GUNBAI_TRANSCRIPT, transcript.join('\n'))
  fs.rmSync(logDir, { recursive: true, force: true })
})

for (const session of SESSIONS.sessions) {
  test(session.title, async () => {
    const client = app.mock.client(session.user, session.group ?? undefined)
    client.event.user.name = session.name
    transcript.push(`## ${session.title}`, '', '```text')
    for (const { send, replies, expect } of session.lines) {
      transcript.push(`${session.name}: ${send}`)
      whispers = []
      // As an adapter passes typed text: escaped element markup.
      const got = await client.receive(h.escape(send))
      for (const w of whispers) transcript.push(`bot → ${session.name} (private): ${w.text}`)
      for (const g of got) transcript.push(`bot: ${g}`)
      assert.deepEqual(whispers.map((w) => w.text), replies.filter((r) => r.to === 'private').map((r) => r.text), `whispers for ${send}`)
      assert.ok(whispers.every((w) => w.userId === session.user), `whispered to ${session.user}`)
      assert.deepEqual(got, replies.filter((r) => r.to === 'chat').map((r) => r.text), `replies to ${send}`)
      checkExpect(send, expect, whispers.map((w) => w.text), got.map(String))
      if (expect) transcript.push(`  ↳ ${expect.why}`)
    }
    transcript.push('```', '')
    checkLogs(session)
  })
}

// A line's `expect` states what its answer must show, independently of the recorded
// replies: `has` (texts in the replies), `lacks` (texts not in them), `private` (a
// whisper was sent), `silent` (no reply at all). A refusal's `has` holds its reason.
function checkExpect(send, expect, whispered, said) {
  if (!expect) return
  const all = [...whispered, ...said].join('\n')
  for (const t of expect.has ?? []) assert.ok(all.includes(t), `${send}: the reply shows ${t} (${expect.why})`)
  for (const t of expect.lacks ?? []) assert.ok(!all.includes(t), `${send}: the reply lacks ${t} (${expect.why})`)
  if (expect.private) assert.ok(whispered.length > 0, `${send}: whispered (${expect.why})`)
  if (expect.silent) assert.equal(all, '', `${send}: no reply (${expect.why})`)
  else assert.ok(all.length > 0, `${send}: answered (${expect.why})`)
}

// Each `.log end` closed a JSON Lines file holding one entry per logged command, each
// with command.run's whole result.
function checkLogs(session) {
  if (!session.log) return
  const dir = path.join(logDir, `mock-${session.group}`)
  const file = path.join(dir, `${session.log.name}.jsonl`)
  const entries = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  assert.deepEqual(entries.map((e) => e.line), session.log.lines)
  for (const e of entries) {
    assert.equal(e.user, session.user)
    assert.equal(e.result.matched, true)
    assert.equal(typeof e.result.text, 'string')
  }
  assert.deepEqual(entries.map((e) => e.result.secret === true), session.log.secret)
  // command.run's structured `record` is in each entry (a `.st` line's is parseSt's result).
  const runs = entries.filter((e) => !e.line.startsWith('.st'))
  assert.ok(runs.length && runs.every((e) => e.result.record.secret === e.result.secret))
}

test('cards live in the database service', async () => {
  const rows = await app.database.get('gunbai_card', {})
  assert.ok(rows.length > 0)
  for (const s of SESSIONS.sessions.filter((s) => s.card)) {
    const row = rows.find((r) => r.user === s.user && r.channel === (s.group ?? `private:${s.user}`))
    assert.deepEqual(row.card, s.card)
  }
})
