// Type-level configuration for the community Foundry VTT types (declaration
// merging, as their configuration.d.mts documents): the module's code runs in
// hooks from `init` on (and its chat / combat handlers after `ready`), so `game`
// is the initialised Game.
import "fvtt-types/configuration";

declare module "fvtt-types/configuration" {
  interface AssumeHookRan {
    ready: never;
  }
}

// The module's settings (registered in gunbai-foundry.mjs on `init`).
declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "gunbai.system": string;
    "gunbai.lang": string;
  }
}

// The module's flags (see the README: the public engine flag on the Combat, the
// record and the players' views (JSON text) on JournalEntries; a
// combatant's or actor's team and per-ruleset stats).
declare module "fvtt-types/configuration" {
  interface FlagConfig {
    Combat: { gunbai: { engine: import("../scripts/combat.mjs").PublicFlag } };
    JournalEntry: { gunbai: { store: string; engine: string; viewOf: { combat: string; user: string }; view: string } };
    Combatant: { gunbai: { team: string; [ruleset: string]: unknown } };
    Actor: { gunbai: { team: string; [ruleset: string]: unknown } };
  }
}
