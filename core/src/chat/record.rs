//! The session-log record of a command (`command.run`'s `record`, [`CmdRecord`]) and
//! the public notice of a secret command. Both are built from the finished result, the
//! same way for every command, so a bot logs one shape whatever the line was.

use super::catalog;
use super::types::{CmdLang, CmdRecord, CmdRecordItem, CmdRunArgs, CmdRunResult};
use crate::error::Result;
use serde_json::Value;

/// The record of `res` (the reply to `args`), `None` for a line that is not a command.
pub(crate) fn record(args: &CmdRunArgs, res: &CmdRunResult) -> Option<CmdRecord> {
    if !res.matched {
        return None;
    }
    let result: Option<Value> = res.result.as_ref().map(crate::json::RawJson::to_value);
    let get = |k: &str| result.as_ref().and_then(|r| r.get(k));
    let int = |k: &str| get(k).and_then(Value::as_i64);
    let mut items = Vec::new();
    if let Some(changes) = get("changes").and_then(Value::as_array) {
        // `.st`: every entry changed.
        for c in changes {
            items.push(CmdRecordItem {
                name: c.get("name").and_then(Value::as_str).map(str::to_string),
                value: None,
                before: c.get("before").and_then(Value::as_i64),
                after: c.get("after").and_then(Value::as_i64),
            });
        }
    } else if let Some(list) = get("items").and_then(Value::as_array) {
        // Several skills in one command (`.en 图书馆 急救`).
        for c in list {
            items.push(CmdRecordItem {
                name: c.get("skill").and_then(Value::as_str).map(str::to_string),
                value: None,
                before: c.get("before").and_then(Value::as_i64),
                after: c.get("after").and_then(Value::as_i64),
            });
        }
    } else if let Some(before) = int("before") {
        items.push(CmdRecordItem {
            name: get("skill").and_then(Value::as_str).map(str::to_string),
            value: None,
            before: Some(before),
            after: int("after"),
        });
    } else if let Some(value) = int("target").or_else(|| int("skill")) {
        // A check: the name is the comment's first word (`.ra 目星` → `CC<=60 目星`).
        let name = res.comment.as_deref().and_then(|c| c.split(super::lex::is_space).next());
        items.push(CmdRecordItem {
            name: name.map(str::to_string),
            value: Some(value),
            before: None,
            after: None,
        });
    }
    let level = get("level").and_then(Value::as_str).map(str::to_string).or_else(|| {
        let special = get("special").and_then(Value::as_bool) == Some(true);
        match (res.critical, res.fumble, special, res.success) {
            (true, _, _, _) => Some("critical".into()),
            (_, true, _, _) => Some("fumble".into()),
            (_, _, true, Some(true)) => Some("special".into()),
            (_, _, _, Some(true)) => Some("success".into()),
            (_, _, _, Some(false)) => Some("failure".into()),
            _ => None,
        }
    });
    let (san_before, san_after) = match res.kind {
        Some(super::CmdKind::Coc7Sanity) => (int("san"), int("san_after")),
        _ => (None, None),
    };
    let error = res
        .parse_error
        .as_ref()
        .map(|p| p.code.clone())
        .or_else(|| res.refused.as_ref().map(|r| r.code.clone()));
    Some(CmdRecord {
        version: 1,
        command: res.command.clone(),
        kind: res.kind,
        system: args.system,
        rule: get("rule").and_then(Value::as_str).map(str::to_string),
        actor: args.actor.clone(),
        items,
        dice: res.rolls.clone(),
        total: res.total,
        level,
        success: res.success,
        secret: res.secret,
        text: res.text.clone(),
        san_before,
        san_after,
        error,
    })
}

/// A secret command's reply becomes the `whisper`; `text` says only that a secret
/// roll happened.
pub(crate) fn hide_secret(mut res: CmdRunResult, lang: CmdLang) -> Result<CmdRunResult> {
    if res.matched && res.secret && res.whisper.is_none() {
        let notice = catalog::msg(lang, "secret_notice")?.to_string();
        res.whisper = Some(std::mem::replace(&mut res.text, notice));
    }
    Ok(res)
}
