import { Context, Schema } from 'koishi'

declare module 'koishi' {
  interface Tables {
    gunbai_card: { platform: string; channel: string; user: string; card: Record<string, number> }
    gunbai_channel: {
      platform: string; channel: string; system: string; lang: string; variants: unknown
      rolls: number; logName: string; logOn: boolean
    }
  }
}

export type Lang = 'ja' | 'zh-Hans' | 'zh-Hant' | 'en'
/** message id -> language -> text */
export type Templates = Record<string, Partial<Record<Lang, string>>>

export interface Config {
  system: 'coc7' | 'coc6' | 'world_trigger' | 'tmd' | 'fap_map' | 'none'
  language: Lang
  houseRule?: number
  templates: Templates
  groupTemplates: Record<string, Templates>
  allLines: boolean
  logDir: string
  tablePack?: string
  seed?: number
}

export const name: 'gunbai'
export const inject: string[]
export const Config: Schema<Config>
export function apply(ctx: Context, config: Config): void
