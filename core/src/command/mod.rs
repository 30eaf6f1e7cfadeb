//! `command` — see the module's README-level docs once implemented.

use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    vec![]
}
