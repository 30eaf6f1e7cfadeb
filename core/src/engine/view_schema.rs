//! The catalog's shapes of the `<module>.<x>_view` operations (schema only: at run
//! time every view operation is [`view_call`](super::view_call), which reads its
//! arguments as JSON and views the state through the handle).
#![allow(dead_code)]

use schemars::JsonSchema;
use serde_json::Value;

/// A viewer of a World Trigger battle: a team's index or id.
#[derive(JsonSchema)]
#[serde(untagged)]
pub enum WtBattleViewer {
    /// The team's index in `state.teams`.
    Index(u32),
    /// The team's id.
    Id(String),
}

/// One view operation's argument and result shapes.
macro_rules! view_shapes {
    ($args:ident, $res:ident, $state:ty, $event:ty, $viewer:ty, $viewer_doc:literal,
     $out_state:ty, $out_state_doc:literal, $out_event:ty $(, data: $data:ty)?) => {
        #[doc = concat!("Arguments of the view operation over `", stringify!($state), "`.")]
        #[derive(JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The state (untrusted: parsed and validated as `_act` reads it).
            pub state: $state,
            #[doc = $viewer_doc]
            #[serde(default)]
            pub viewer: Option<$viewer>,
            /// The events of the action that led to `state` (its `_act` result's `events`),
            /// to redact for the viewer.
            #[serde(default)]
            pub events: Option<Vec<$event>>,
            $(
                /// The action pack given to `round_new`, if any.
                #[serde(default)]
                pub data: Option<$data>,
            )?
        }

        #[doc = concat!("Result of the view operation over `", stringify!($state), "`.")]
        #[derive(JsonSchema)]
        pub struct $res {
            #[doc = $out_state_doc]
            pub state: $out_state,
            /// The given events as the viewer may see them (only when `events` was given).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub events: Option<Vec<$out_event>>,
        }
    };
}

view_shapes!(
    WtBattleViewArgs, WtBattleViewResult,
    crate::world_trigger::battle::state::WtBattleState,
    crate::world_trigger::battle::actions::WtBattleEvent,
    WtBattleViewer,
    "The team viewing (its index or id); absent or null: the GM, who sees everything.",
    serde_json::Map<String, Value>,
    "The state in `WtBattleState`'s shape, except that what the team may not see is absent (WT-ST-1): another team's member in Stealth has no `at`, and a pending attack on one no `push_to`. Not a loadable state for another team's view.",
    serde_json::Map<String, Value>
);

view_shapes!(
    TmdEncounterViewArgs,
    TmdEncounterViewResult,
    crate::tmd::encounter::TmdEncounterState,
    crate::tmd::encounter::TmdEvent,
    String,
    "A character's id or a side's name; absent or null: the GM.",
    crate::tmd::encounter::TmdEncounterState,
    "The state: TMD hides nothing from a viewer, so it is the state unchanged.",
    crate::tmd::encounter::TmdEvent
);

view_shapes!(
    CocApRoundViewArgs,
    CocApRoundViewResult,
    crate::coc_ap::round::CocApRoundState,
    crate::coc_ap::round::CocApEvent,
    String,
    "A participant's id; absent or null: the KP.",
    crate::coc_ap::round::CocApRoundState,
    "The state: the AP round hides nothing from a viewer, so it is the state unchanged.",
    crate::coc_ap::round::CocApEvent
);

view_shapes!(
    C7hRoundViewArgs,
    C7hRoundViewResult,
    crate::coc7_house::round::C7hRoundState,
    crate::coc7_house::round::C7hEvent,
    String,
    "A combatant's id; absent or null: the KP.",
    crate::coc7_house::round::C7hRoundState,
    "The state: the round hides nothing from a viewer, so it is the state unchanged.",
    crate::coc7_house::round::C7hEvent
);

view_shapes!(
    C7hChaseViewArgs,
    C7hChaseViewResult,
    crate::coc7_house::chase::C7hChaseState,
    crate::coc7_house::chase::C7hChaseEvent,
    String,
    "The fugitive's or the pursuer's id; absent or null: the KP.",
    crate::coc7_house::chase::C7hChaseState,
    "The state: a chase hides nothing from a viewer, so it is the state unchanged.",
    crate::coc7_house::chase::C7hChaseEvent
);

view_shapes!(
    FmRoundViewArgs, FmRoundViewResult,
    crate::fap_map::round::FmRoundState,
    crate::fap_map::round::FmEvent,
    String,
    "A combatant's id; absent or null: the GM.",
    crate::fap_map::round::FmRoundState,
    "The state: the round hides nothing from a viewer, so it is the state unchanged.",
    crate::fap_map::round::FmEvent,
    data: Value
);
