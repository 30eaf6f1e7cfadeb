// The plugin's own words: message id -> {ja, zh-Hans, zh-Hant, en}. Every dice reply
// comes from gunbai's command.run in the chosen language; these few texts are what the
// plugin itself says. They are defined in ctx.i18n under `gunbai.<id>` (locales ja-JP,
// zh-CN, zh-TW, en-US); a group overrides them through the config (README.md).
'use strict'

const TEMPLATES = {
  secret_notice: {
    ja: '{user}がシークレットダイスを振りました',
    'zh-Hans': '{user}进行了一次暗骰',
    'zh-Hant': '{user}進行了一次暗骰',
    en: '{user} made a secret roll',
  },
  secret_whisper: { ja: '[{group}] {text}', 'zh-Hans': '[{group}] {text}', 'zh-Hant': '[{group}] {text}', en: '[{group}] {text}' },
  log_new: {
    ja: 'ログ「{name}」を開始しました',
    'zh-Hans': '已新建日志「{name}」并开始记录',
    'zh-Hant': '已新建日誌「{name}」並開始記錄',
    en: "log '{name}' started",
  },
  log_on: { ja: 'ログ「{name}」の記録を再開しました', 'zh-Hans': '日志「{name}」继续记录', 'zh-Hant': '日誌「{name}」繼續記錄', en: "log '{name}' resumed" },
  log_off: { ja: 'ログ「{name}」の記録を一時停止しました', 'zh-Hans': '日志「{name}」暂停记录', 'zh-Hant': '日誌「{name}」暫停記錄', en: "log '{name}' paused" },
  log_end: {
    ja: 'ログ「{name}」を終了しました（{count}件）',
    'zh-Hans': '日志「{name}」已结束（共{count}条）',
    'zh-Hant': '日誌「{name}」已結束（共{count}條）',
    en: "log '{name}' ended ({count} entries)",
  },
  log_none: { ja: '記録中のログはありません', 'zh-Hans': '当前没有日志', 'zh-Hant': '目前沒有日誌', en: 'no log' },
  log_usage: {
    ja: '使い方: .log new [名前] / .log on / .log off / .log end',
    'zh-Hans': '用法：.log new [名称] / .log on / .log off / .log end',
    'zh-Hant': '用法：.log new [名稱] / .log on / .log off / .log end',
    en: 'usage: .log new [NAME] / .log on / .log off / .log end',
  },
  system: { ja: 'システム: {value}', 'zh-Hans': '规则：{value}', 'zh-Hant': '規則：{value}', en: 'system: {value}' },
  lang: { ja: '言語: {value}', 'zh-Hans': '语言：{value}', 'zh-Hant': '語言：{value}', en: 'language: {value}' },
  bad_value: { ja: '使えない値です: {value}', 'zh-Hans': '无效的值：{value}', 'zh-Hant': '無效的值：{value}', en: 'unknown value: {value}' },
  error: { ja: 'エラー: {code}: {message}', 'zh-Hans': '错误：{code}：{message}', 'zh-Hant': '錯誤：{code}：{message}', en: 'error: {code}: {message}' },
}

// Template language -> Koishi locale.
const LOCALES = { ja: 'ja-JP', 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW', en: 'en-US' }

// The template language of a language tag (ja, zh-Hans, zh-CN, zh-TW, en-US ...), or null.
function templateLang(tag) {
  const low = String(tag).replace(/_/g, '-').toLowerCase()
  for (const l of Object.keys(LOCALES)) if (low === l.toLowerCase()) return l
  if (['zh-cn', 'zh-sg'].includes(low)) return 'zh-Hans'
  if (['zh-tw', 'zh-hk', 'zh-mo'].includes(low) || low.startsWith('zh-hant')) return 'zh-Hant'
  const base = low.split('-')[0]
  if (base === 'zh') return 'zh-Hans'
  if (base === 'ja' || base === 'en') return base
  return null
}

module.exports = { TEMPLATES, LOCALES, templateLang }
