//! The four-language label every ruleset and the chat commands show to players.

use crate::json::{FromJson, ToJson};

/// A player-facing name in the four display languages.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtLabel {
    /// Japanese.
    #[serde(default)]
    pub ja: String,
    /// Simplified Chinese.
    #[serde(default)]
    pub zh_hans: String,
    /// Traditional Chinese (the seed's own language).
    #[serde(default)]
    pub zh_hant: String,
    /// English.
    pub en: String,
}

impl WtLabel {
    /// Build a label from its four texts.
    pub fn new(ja: &str, zh_hans: &str, zh_hant: &str, en: &str) -> WtLabel {
        WtLabel { ja: ja.into(), zh_hans: zh_hans.into(), zh_hant: zh_hant.into(), en: en.into() }
    }
}

/// The four display languages' positions in a [`Tpl`]: ja, zh_hans, zh_hant, en.
pub const LANGS: usize = 4;

/// A sentence template in the four display languages (ja, zh_hans, zh_hant, en).
/// `{0}` … `{9}` stand for the arguments of [`fill`]; every other character is text.
/// Sentences are data: one template per outcome, and one function fills them all
/// (a `format!` per language per sentence was most of an engine's sentence code).
pub type Tpl = [&'static str; LANGS];

/// An argument of a sentence template: its text in one language.
pub trait Say {
    /// Append this argument's text in language `lang` (an index into a [`Tpl`]).
    fn say(&self, lang: usize, out: &mut String);
}

impl Say for str {
    fn say(&self, _: usize, out: &mut String) {
        out.push_str(self);
    }
}
impl Say for String {
    fn say(&self, _: usize, out: &mut String) {
        out.push_str(self);
    }
}
impl<T: Say + ?Sized> Say for &T {
    fn say(&self, lang: usize, out: &mut String) {
        (**self).say(lang, out)
    }
}
impl Say for i64 {
    fn say(&self, _: usize, out: &mut String) {
        push_int(*self, out)
    }
}
impl Say for u32 {
    fn say(&self, _: usize, out: &mut String) {
        push_int(i64::from(*self), out)
    }
}
impl Say for WtLabel {
    fn say(&self, lang: usize, out: &mut String) {
        out.push_str(pick4([&self.ja, &self.zh_hans, &self.zh_hant, &self.en], lang))
    }
}

/// One of four texts (ja, zh_hans, zh_hant, en) by language index: the `Say` of any
/// four-language struct.
pub fn pick4(texts: [&str; LANGS], lang: usize) -> &str {
    texts[lang.min(LANGS - 1)]
}
impl Say for [&str; LANGS] {
    fn say(&self, lang: usize, out: &mut String) {
        out.push_str(self[lang.min(LANGS - 1)])
    }
}

/// A template with its arguments, itself an argument: a piece of a larger sentence,
/// filled in the larger sentence's language.
pub struct Part<'a>(pub &'a Tpl, pub &'a [&'a dyn Say]);

impl Say for Part<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        fill_into(self.0[lang.min(LANGS - 1)], lang, self.1, out)
    }
}

/// Nothing, in every language (an optional piece left out).
pub const NOTHING: Tpl = ["", "", "", ""];

/// A list joined with a separator per language.
pub struct Joined<'a>(pub &'a [String], pub &'a Tpl);

impl Say for Joined<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(self.1[lang.min(LANGS - 1)]);
            }
            out.push_str(s);
        }
    }
}

#[inline(never)]
fn push_int(n: i64, out: &mut String) {
    let _ = core::fmt::Write::write_fmt(out, format_args!("{n}"));
}

/// Fill one language's template: `{n}` is argument n (a single digit); a `{` not
/// followed by a digit and `}` is text.
#[inline(never)]
fn fill_into(t: &str, lang: usize, args: &[&dyn Say], out: &mut String) {
    let mut rest = t;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let b = rest.as_bytes();
        match (b.get(at + 1), b.get(at + 2)) {
            (Some(d @ b'0'..=b'9'), Some(b'}')) => {
                if let Some(a) = args.get(usize::from(d - b'0')) {
                    a.say(lang, out);
                }
                rest = &rest[at + 3..];
            }
            _ => {
                out.push('{');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
}

/// Fill a four-language template with its arguments.
#[inline(never)]
pub fn fill(t: &Tpl, args: &[&dyn Say]) -> WtLabel {
    let one = |lang: usize| {
        let mut s = String::new();
        fill_into(t[lang], lang, args, &mut s);
        s
    };
    WtLabel { ja: one(0), zh_hans: one(1), zh_hant: one(2), en: one(3) }
}

/// An event as an engine reports it: the event's own fields, with the rule (a RULES.md
/// ID) that produced it and one sentence stating it in the four display languages, side
/// by side in one JSON object (`{"type": "damage", …, "rule": "WT-DMG-1", "text": {…}}`).
/// An engine's own event type stays plain; its reported events (the pure operations'
/// `events`, a handle's) are `Logged`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Logged<E> {
    /// What happened.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub event: E,
    /// The rule (RULES.md ID) that produced it.
    pub rule: String,
    /// One full sentence stating what happened.
    pub text: WtLabel,
}

impl<E> Logged<E> {
    /// An event with the rule that produced it and its sentence.
    pub fn new(event: E, rule: &str, text: WtLabel) -> Self {
        Logged { event, rule: rule.to_string(), text }
    }
}

impl<E: ToJson> ToJson for Logged<E> {
    fn to_json(&self) -> serde_json::Value {
        let mut v = self.event.to_json();
        if let Some(m) = v.as_object_mut() {
            m.insert("rule".into(), serde_json::Value::String(self.rule.clone()));
            m.insert("text".into(), self.text.to_json());
        }
        v
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// The event's own object with `rule` and `text` written before its closing brace
    /// (an event with a `rule` or `text` field of its own, which these replace in
    /// place, goes through [`to_json`](Self::to_json)).
    fn write_json(&self, out: &mut Vec<u8>) {
        let start = out.len();
        self.event.write_json(out);
        // Within JSON text, `"key":` after `{` or `,` is a key: a string's quotes are escaped.
        let own = |key: &[u8]| {
            out[start..].windows(key.len() + 1).any(|w| matches!(w[0], b'{' | b',') && &w[1..] == key)
        };
        if own(b"\"rule\":") || own(b"\"text\":") {
            out.truncate(start);
            crate::json::write_value(&self.to_json(), out);
            return;
        }
        if out.len() > start && out.last() == Some(&b'}') {
            out.pop();
            if out.len() > start + 1 {
                out.push(b',');
            }
            out.extend_from_slice(b"\"rule\":");
            crate::json::write_str(&self.rule, out);
            out.extend_from_slice(b",\"text\":");
            self.text.write_json(out);
            out.push(b'}');
        }
    }
}

/// The schema of `Logged<E>`: each variant of `E` (a tagged enum, its branches closed to
/// unknown keys) with `rule` and `text` beside its own fields. Named after `E`, with
/// `Event` read as `LoggedEvent` (`TmdEvent` → `TmdLoggedEvent`).
#[cfg(feature = "schema")]
impl<E: schemars::JsonSchema> schemars::JsonSchema for Logged<E> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        E::schema_name().replacen("Event", "LoggedEvent", 1).into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        use serde_json::Value;
        let mut s = E::json_schema(g);
        let rule =
            serde_json::json!({"type": "string", "description": "The rule (RULES.md ID) that produced it."});
        let mut text = g.subschema_for::<WtLabel>().to_value();
        if let Some(m) = text.as_object_mut() {
            m.insert("description".into(), "One full sentence stating what happened.".into());
        }
        for b in s.get_mut("oneOf").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(props) = b.get_mut("properties").and_then(Value::as_object_mut) {
                props.insert("rule".into(), rule.clone());
                props.insert("text".into(), text.clone());
            }
            if let Some(req) = b.get_mut("required").and_then(Value::as_array_mut) {
                for k in ["rule", "text"] {
                    if !req.iter().any(|r| r == k) {
                        req.push(k.into());
                    }
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod fill_tests {
    use super::*;

    #[test]
    fn fills_each_language_with_its_own_argument_text() {
        let piece: Tpl = ["（残りAP {0}）", "（剩余AP {0}）", "（剩餘AP {0}）", " ({0} AP left)"];
        let l = fill(
            &["{0}は{2}で攻撃{1}。", "{0}用{2}攻击{1}。", "{0}用{2}攻擊{1}。", "{0} attacks with {2}{1}."],
            &[&"A", &Part(&piece, &[&-3i64]), &["刀", "刀", "刀", "a knife"]],
        );
        assert_eq!(l.ja, "Aは刀で攻撃（残りAP -3）。");
        assert_eq!(l.zh_hant, "A用刀攻擊（剩餘AP -3）。");
        assert_eq!(l.en, "A attacks with a knife (-3 AP left).");
        let o = fill(
            &["{0}", "{0}", "{0}", "{0} {x} {"],
            &[&Joined(&["a".into(), "b".into()], &["→", "→", "→", ", "])],
        );
        assert_eq!((o.ja.as_str(), o.en.as_str()), ("a→b", "a, b {x} {"));
        assert_eq!(fill(&["{0}{1}"; 4], &[&i64::MIN, &u32::MAX]).en, format!("{}{}", i64::MIN, u32::MAX));
    }
}
