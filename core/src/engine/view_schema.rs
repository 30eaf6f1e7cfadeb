//! The catalog's shapes of the `<module>.<x>_view` operations (schema only: at run
//! time every view operation is [`view_call`](super::view_call), which reads its
//! arguments as JSON and views the state through the handle). Each ruleset declares
//! its engines' shapes with [`view_shapes!`] beside its `Engine`s.

/// One view operation's argument and result shapes.
macro_rules! view_shapes {
    ($args:ident, $res:ident, $state:ty, $event:ty, $viewer:ty, $viewer_doc:literal,
     $out_state:ty, $out_state_doc:literal, $out_event:ty $(, data: $data:ty)?) => {
        #[doc = concat!("Arguments of the view operation over `", stringify!($state), "`.")]
        #[allow(dead_code)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
            /// The action that led to `state` (as `_act` took it), to redact for the viewer.
            #[serde(default)]
            pub action: Option<serde_json::Map<String, serde_json::Value>>,
            $(
                /// The action pack given to `round_new`, if any.
                #[serde(default)]
                pub data: Option<$data>,
            )?
        }

        #[doc = concat!("Result of the view operation over `", stringify!($state), "`.")]
        #[allow(dead_code)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $res {
            #[doc = $out_state_doc]
            pub state: $out_state,
            /// The given events as the viewer may see them (only when `events` was given).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub events: Option<Vec<$out_event>>,
            /// The given action as the viewer may see it (only when `action` was given;
            /// World Trigger: without the route, area centre, forced-movement square or
            /// target the team may not see, WT-ST-1).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub action: Option<serde_json::Map<String, serde_json::Value>>,
        }
    };
}

#[allow(unused_imports)]
pub(crate) use view_shapes;

/// One turn operation's argument shape (its result is [`Turn`](super::Turn)).
macro_rules! turn_shapes {
    ($args:ident, $state:ty, $viewer:ty, $viewer_doc:literal $(, data: $data:ty)?) => {
        #[doc = concat!("Arguments of the turn operation over `", stringify!($state), "`.")]
        #[allow(dead_code)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The state (untrusted: parsed and validated as `_act` reads it).
            pub state: $state,
            #[doc = $viewer_doc]
            #[serde(default)]
            pub viewer: Option<$viewer>,
            $(
                /// The action pack given to `round_new`, if any.
                #[serde(default)]
                pub data: Option<$data>,
            )?
        }
    };
}

#[allow(unused_imports)]
pub(crate) use turn_shapes;

/// One simulate operation's argument shape (its result is
/// [`SimulateResult`](super::simulate::SimulateResult)).
macro_rules! simulate_shapes {
    ($args:ident, $setup:ty) => {
        #[doc = concat!("Arguments of the simulate operation over `", stringify!($setup), "`.")]
        #[allow(dead_code)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The setup of every battle: the `_new` operation's arguments. Its dice (if
            /// it rolls any) come from each battle's seed, unless it gives `seed` or `rolls`.
            pub setup: $setup,
            /// Which battles, and how they are played.
            #[serde(flatten)]
            pub run: $crate::engine::simulate::SimRun,
        }
    };
}

#[allow(unused_imports)]
pub(crate) use simulate_shapes;
