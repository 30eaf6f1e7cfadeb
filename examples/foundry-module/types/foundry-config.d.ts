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
    ChatMessage: {
      gunbai: {
        request: { combat: string | null; seq: number; index: number; rollMode: string };
        [key: string]: unknown;
      };
    };
    JournalEntry: { gunbai: { store: string; engine: string; viewOf: { combat: string; user: string }; view: string } };
    Combatant: { gunbai: { team: string; [ruleset: string]: unknown } };
    Actor: { gunbai: { team: string; [ruleset: string]: unknown } };
  }
}

// Dice So Nice's hook (a module's own, not Foundry's): its argument is Dice So Nice's
// `Dice3D`, which these types do not describe; the module calls its documented
// `addDicePreset` only.
declare module "fvtt-types/configuration" {
  namespace Hooks {
    interface HookConfig {
      diceSoNiceReady: (dice3d: { addDicePreset(preset: Record<string, unknown>, shape?: string): void }) => void;
    }
  }
}

// The module's API (`game.modules.get("gunbai").api`, set on `init`).
declare module "fvtt-types/configuration" {
  interface ModuleConfig {
    gunbai: { api: Record<string, unknown> };
  }
}
