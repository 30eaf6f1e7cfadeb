// koishi-plugin-gunbai: TRPG dice for Koishi through gunbai's command.run.
// Every roll and every reply about the dice comes from command.run (a `.st` line from
// command.parseSt); the plugin keeps what those return (the player's card, the group's
// house-rule variants, the channel's initiative list) in Koishi's database, writes the `.log` session log as JSON Lines,
// and whispers a result marked `secret` to its roller. See README.md.
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const { Schema, h } = require('koishi')
const { TEMPLATES, LOCALES, templateLang } = require('./templates')

const name = 'gunbai'
const inject = ['database']
const SYSTEMS = ['coc7', 'coc6', 'world_trigger', 'tmd', 'fap_map', 'none']
const DOTS = ['.', '。', '．']
const LOG_NAME = /^[\w-]{1,64}$/

const Template = Schema.dict(Schema.string()).description('language (ja, zh-Hans, zh-Hant, en) -> text')
const Config = Schema.object({
  system: Schema.union(SYSTEMS).default('coc7').description('Default system of a group (`.gunbai system …` changes it per group).'),
  language: Schema.union(['ja', 'zh-Hans', 'zh-Hant', 'en']).default('zh-Hans').description('Default reply language (`.gunbai lang …` per group).'),
  houseRule: Schema.natural().max(5).description('Default CoC 7th-edition house rule (`.setcoc N`); empty: the rulebook.'),
  templates: Schema.dict(Template).default({}).description('Reply templates over the defaults: message id -> language -> text.'),
  groupTemplates: Schema.dict(Schema.dict(Template)).default({}).description('Per group (channel id): message id -> language -> text.'),
  allLines: Schema.boolean().default(false).description('Also read lines without a dot (BCDice style: CC<=50, 2D6+1).'),
  logDir: Schema.string().default('data/gunbai/logs').description('Folder of the `.log` JSON Lines files.'),
  tablePack: Schema.string().description('Table pack (a JSON file) with the texts of the rulebook tables `.ti`, `.li`, BMR, PH … roll: the group\'s own, or gunbai\'s illustrative sample (core/data/command/coc7_tables.json). Empty: the entry is named by its number.'),
  seed: Schema.natural().hidden().description('Reproducible dice (roll k of a group uses seed + k): tests and transcripts.'),
})

// gunbai is an ES module (WebAssembly, loaded once).
let gunbaiModule
const loadGunbai = () => (gunbaiModule ||= import('gunbai'))

function apply(ctx, config) {
  ctx.model.extend('gunbai_card', {
    platform: 'string', channel: 'string', user: 'string', card: 'json',
  }, { primary: ['platform', 'channel', 'user'] })
  ctx.model.extend('gunbai_channel', {
    platform: 'string', channel: 'string', system: 'string', lang: 'string', variants: 'json',
    rolls: 'unsigned', logName: 'string', logOn: 'boolean', init: 'json',
  }, { primary: ['platform', 'channel'] })

  for (const [lang, locale] of Object.entries(LOCALES)) {
    const dict = {}
    for (const [id, texts] of Object.entries(TEMPLATES)) dict[id] = texts[lang]
    ctx.i18n.define(locale, { gunbai: dict })
  }

  let defaultVariants
  let tablePack
  const ready = (async () => {
    const gunbai = await loadGunbai()
    if (config.tablePack) tablePack = JSON.parse(fs.readFileSync(path.resolve(ctx.baseDir ?? process.cwd(), config.tablePack), 'utf8'))
    if (config.houseRule !== undefined && config.houseRule !== null) {
      // The house rule's variants come from gunbai itself (`.setcoc N`).
      const r = gunbai.command.run({ text: `.setcoc ${config.houseRule}`, system: 'coc7' })
      if (r.refused || r.parse_error) throw new Error(`houseRule ${config.houseRule}: ${r.text}`)
      defaultVariants = r.result?.variants
    }
    return gunbai
  })()

  // A template as elements: the group's override, the operator's, else ctx.i18n's
  // `gunbai.<id>` (where the console's locale edits apply). A locale the app's i18n does
  // not list (Koishi's default list has no zh-TW) would fall back to another language's
  // text: then the plugin's own table answers in the language asked for.
  function say(id, lang, channel, params) {
    const own = config.groupTemplates?.[channel]?.[id]?.[lang] ?? config.templates?.[id]?.[lang]
    if (own !== undefined) return h.parse(own, params)
    const locale = LOCALES[lang]
    if (ctx.i18n.fallback([locale])[0] === locale) return ctx.i18n.render([locale], [`gunbai.${id}`], params)
    return h.parse(TEMPLATES[id][lang], params)
  }

  async function channelRow(platform, channel) {
    const [row] = await ctx.database.get('gunbai_channel', { platform, channel })
    return row ?? { platform, channel, system: '', lang: '', variants: null, rolls: 0, logName: '', logOn: false, init: null }
  }
  const saveChannel = (row) => ctx.database.upsert('gunbai_channel', [row])
  async function getCard(platform, channel, user) {
    const [row] = await ctx.database.get('gunbai_card', { platform, channel, user })
    return row?.card ?? {}
  }
  async function saveCard(platform, channel, user, card) {
    if (card && Object.keys(card).length) await ctx.database.upsert('gunbai_card', [{ platform, channel, user, card }])
    else await ctx.database.remove('gunbai_card', { platform, channel, user })
  }
  const logFile = (platform, channel, logName) =>
    path.resolve(ctx.baseDir ?? process.cwd(), config.logDir, `${platform}-${channel}`.replace(/[^\w-]/g, '_'), `${logName}.jsonl`)
  function appendLog(row, session, line, result) {
    if (!row.logName || !row.logOn) return
    const file = logFile(row.platform, row.channel, row.logName)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const entry = { time: Date.now() / 1000, user: session.userId, name: session.username, line, result }
    fs.appendFileSync(file, JSON.stringify(entry) + '\n')
  }

  async function logCommand(row, lang, rest) {
    const [sub = '', arg = ''] = [rest.split(' ')[0].toLowerCase(), rest.split(' ').slice(1).join(' ').trim()]
    if (sub === 'new') {
      const logName = arg || new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
      if (!LOG_NAME.test(logName)) return say('bad_value', lang, row.channel, { value: logName.slice(0, 32) })
      fs.rmSync(logFile(row.platform, row.channel, logName), { force: true })
      Object.assign(row, { logName, logOn: true })
      await saveChannel(row)
      return say('log_new', lang, row.channel, { name: logName })
    }
    if (['on', 'off', 'end'].includes(sub)) {
      if (!row.logName) return say('log_none', lang, row.channel, {})
      const logName = row.logName
      if (sub === 'end') {
        const file = logFile(row.platform, row.channel, logName)
        const count = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0
        Object.assign(row, { logName: '', logOn: false })
        await saveChannel(row)
        return say('log_end', lang, row.channel, { name: logName, count })
      }
      row.logOn = sub === 'on'
      await saveChannel(row)
      return say(`log_${sub}`, lang, row.channel, { name: logName })
    }
    return say('log_usage', lang, row.channel, {})
  }

  async function setting(gunbai, row, lang, rest) {
    const [key, ...more] = rest.split(' ')
    const value = more.join(' ').trim()
    if (key === 'system' && SYSTEMS.includes(value)) {
      row.system = value
      await saveChannel(row)
      return say('system', lang, row.channel, { value })
    }
    if (key === 'lang') {
      const next = templateLang(value)
      try {
        if (!next) throw new Error(value)
        gunbai.command.help({ lang: value }) // gunbai accepts it too
      } catch {
        return say('bad_value', lang, row.channel, { value: value.slice(0, 32) })
      }
      row.lang = next
      await saveChannel(row)
      return say('lang', next, row.channel, { value })
    }
    return say('bad_value', lang, row.channel, { value: rest.slice(0, 32) })
  }

  ctx.middleware(async (session, next) => {
    const send = async (content) => { await session.send(content) }
    // The content is element markup: an adapter escapes `<` and `&` of what was typed (`CC<=50`).
    const line = h.unescape(session.stripped?.content ?? session.content ?? '').trim()
    const isDot = DOTS.some((d) => line.startsWith(d))
    if (!isDot && !config.allLines) return next()
    const gunbai = await ready
    const channel = session.isDirect ? `private:${session.userId}` : session.channelId
    const row = await channelRow(session.platform, channel)
    const lang = row.lang || config.language
    const system = (row.system || config.system) === 'none' ? null : (row.system || config.system)
    let r
    try {
      if (isDot) {
        const [word, ...restWords] = line.slice(1).trim().split(' ')
        const rest = restWords.join(' ').trim()
        const w = word.toLowerCase()
        if (w === 'log') return send(await logCommand(row, lang, rest))
        if (w === 'gunbai') return send(await setting(gunbai, row, lang, rest))
        if (w === 'help') return send(h.text(gunbai.command.help({ system, lang }).text))
        if (w.startsWith('st')) {
          const st = gunbai.command.parseSt({ text: line, card: await getCard(session.platform, channel, session.userId), lang })
          if (st.matched) {
            await saveCard(session.platform, channel, session.userId, st.card)
            appendLog(row, session, line, st)
            return send(h.text(st.text))
          }
        }
      }
      // The actor names a `.ri` without a name; the initiative list is the channel's.
      const args = { text: line, system, lang, actor: [...(session.username ?? '')].slice(0, 64).join(''), init: row.init ?? [] }
      if (tablePack) args.table_pack = tablePack
      const card = await getCard(session.platform, channel, session.userId)
      if (Object.keys(card).length) args.card = card
      const variants = row.variants ?? defaultVariants
      if (variants) args.variants = variants
      if (config.seed !== undefined && config.seed !== null) args.seed = config.seed + row.rolls
      r = gunbai.command.run(args)
    } catch (e) {
      if (e && e.code) return send(say('error', lang, channel, { code: e.code, message: e.message }))
      throw e
    }
    if (!r.matched) return next()
    // What the command changed, kept for the next one: gunbai itself stores nothing.
    if (r.rolls?.length) row.rolls += 1
    if (r.result && typeof r.result.card === 'object' && r.result.card) await saveCard(session.platform, channel, session.userId, r.result.card)
    if (r.kind === 'coc7_house_rule' && r.result?.variants) row.variants = r.result.variants
    if (r.kind === 'initiative' && Array.isArray(r.result?.entries)) row.init = r.result.entries
    await saveChannel(row)
    appendLog(row, session, line, r)
    if (r.secret === true) {
      // A secret command's full reply is its `whisper` (its `text` is only the public
      // notice): to the roller alone; the group reads the plugin's own notice.
      const whisper = r.whisper || r.text
      if (session.isDirect) return send(h.text(whisper))
      await session.bot.sendPrivateMessage(session.userId, say('secret_whisper', lang, channel, { group: channel, text: whisper }), session.guildId, { session })
      return send(say('secret_notice', lang, channel, { user: session.username }))
    }
    return send(h.text(r.text))
  })
}

module.exports = { name, inject, Config, apply }
