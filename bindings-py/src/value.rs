//! `_native.call_value`: one call with Python objects on both sides.
//!
//! The arguments are written as JSON text here, without a pass through Python's `json`,
//! when they hold only exact `dict` (string keys), `list`, `tuple`, `str`, `bool`,
//! `None`, `int` within 64 bits and whole `float`s below 1e21 (written as integers, as
//! JavaScript writes them and as the Python package's own encoder does). Anything else
//! (a numpy value, a set, a non-whole or non-finite float, a lone surrogate, a subclass,
//! nesting deeper than [`MAX_DEPTH`]) raises `Unencodable`, and the package takes its
//! JSON-text path, which writes or refuses such values exactly as before.
//!
//! The core's `{"ok":VALUE}` envelope is read straight into Python objects; any other
//! envelope (an error) or one this reader does not expect is raised as `CoreError`
//! carrying the envelope text, which the package reads with `json.loads` as before.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

pyo3::create_exception!(
    _native,
    Unencodable,
    PyException,
    "Arguments only the package's JSON-text path writes."
);
pyo3::create_exception!(
    _native,
    CoreError,
    PyException,
    "The core's envelope when it is not `{\"ok\":…}` (args[0])."
);

/// Deeper than this the arguments go the JSON-text path (the core refuses more than
/// 64 levels either way; a circular value ends here too).
pub const MAX_DEPTH: u32 = 100;

/// `value` as JSON text appended to `out`; `Err(())` when it holds anything but the
/// plain shapes listed in the module doc.
pub fn write_json(value: &Bound<'_, PyAny>, out: &mut String, depth: u32) -> Result<(), ()> {
    if depth > MAX_DEPTH {
        return Err(());
    }
    if value.is_none() {
        out.push_str("null");
    } else if let Ok(s) = value.downcast_exact::<PyString>() {
        write_str(&s.to_cow().map_err(drop)?, out);
    } else if let Ok(d) = value.downcast_exact::<PyDict>() {
        out.push('{');
        for (i, (k, v)) in d.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let k = k.downcast_exact::<PyString>().map_err(drop)?;
            write_str(&k.to_cow().map_err(drop)?, out);
            out.push(':');
            write_json(&v, out, depth + 1)?;
        }
        out.push('}');
    } else if let Ok(l) = value.downcast_exact::<PyList>() {
        write_items(l.iter(), out, depth)?;
    } else if let Ok(t) = value.downcast_exact::<PyTuple>() {
        write_items(t.iter(), out, depth)?;
    } else if let Ok(b) = value.downcast_exact::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if let Ok(i) = value.downcast_exact::<PyInt>() {
        if let Ok(x) = i.extract::<i64>() {
            let _ = write!(out, "{x}");
        } else {
            let x = i.extract::<u64>().map_err(drop)?;
            let _ = write!(out, "{x}");
        }
    } else if let Ok(f) = value.downcast_exact::<PyFloat>() {
        let x = f.value();
        // A whole float as an integer (`2.0` → `2`, `-0.0` → `0`, `1e16` → digits); any
        // other float goes the text path (Python writes it with `repr`).
        if !(x.is_finite() && x.fract() == 0.0 && x.abs() < 1e21) {
            return Err(());
        }
        let _ = write!(out, "{}", x as i128);
    } else {
        return Err(());
    }
    Ok(())
}

fn write_items<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    out: &mut String,
    depth: u32,
) -> Result<(), ()> {
    out.push('[');
    for (i, v) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json(&v, out, depth + 1)?;
    }
    out.push(']');
    Ok(())
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Strings up to this many bytes are kept once made ([`short_string`]).
const SHORT: usize = 24;
/// At most this many are kept (keys and enum-like values: a few hundred in all).
const KEPT: usize = 4096;

/// FNV-1a: the strings hashed are a few bytes long.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

thread_local! {
    static KEPT_STRINGS: RefCell<HashMap<Box<str>, Py<PyString>, BuildHasherDefault<Fnv>>> = RefCell::default();
}

/// `s` as a Python str; a short one is made once and shared (the keys of every reply
/// and values such as `"normal"` recur on every call; `json.loads` shares keys within
/// one reply). A str is immutable, so sharing one is not seen but by `is`.
fn short_string<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    if s.len() > SHORT {
        return PyString::new(py, s);
    }
    KEPT_STRINGS.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(p) = kept.get(s) {
            return p.bind(py).clone();
        }
        let p = PyString::new(py, s);
        if kept.len() < KEPT {
            kept.insert(s.into(), p.clone().unbind());
        }
        p
    })
}

/// The `VALUE` of an envelope `{"ok":VALUE}` as Python objects; None when the
/// envelope is anything else or not in the compact shape the core writes.
pub fn read_ok<'py>(py: Python<'py>, envelope: &str) -> Option<Bound<'py, PyAny>> {
    let inner = envelope.strip_prefix("{\"ok\":")?.strip_suffix('}')?;
    let mut r = Reader { s: inner, i: 0, depth: 0 };
    let v = r.value(py)?;
    (r.i == inner.len()).then_some(v)
}

struct Reader<'a> {
    s: &'a str,
    i: usize,
    depth: u32,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        self.s[self.i..].starts_with(word).then(|| self.i += word.len())
    }

    fn value<'py>(&mut self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        match self.peek()? {
            b'{' => self.object(py),
            b'[' => self.array(py),
            b'"' => Some(short_string(py, &self.string()?).into_any()),
            b't' => self.literal("true").map(|()| PyBool::new(py, true).to_owned().into_any()),
            b'f' => self.literal("false").map(|()| PyBool::new(py, false).to_owned().into_any()),
            b'n' => self.literal("null").map(|()| py.None().into_bound(py)),
            _ => self.number(py),
        }
    }

    fn nest(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= 200).then_some(())
    }

    fn object<'py>(&mut self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.nest()?;
        self.i += 1;
        let d = PyDict::new(py);
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let k = self.string()?;
                if self.peek()? != b':' {
                    return None;
                }
                self.i += 1;
                let v = self.value(py)?;
                d.set_item(short_string(py, &k), v).ok()?;
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(d.into_any())
    }

    fn array<'py>(&mut self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.nest()?;
        self.i += 1;
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
        } else {
            loop {
                items.push(self.value(py)?);
                match self.peek()? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        PyList::new(py, items).ok().map(Bound::into_any)
    }

    /// A string token (at its opening quote), unescaped; None for a lone surrogate
    /// escape (not Rust text: the package's `json.loads` reads it).
    fn string(&mut self) -> Option<std::borrow::Cow<'a, str>> {
        let src: &'a str = self.s;
        let b = src.as_bytes();
        let start = self.i + 1;
        let mut j = start;
        while j < b.len() && b[j] != b'"' && b[j] != b'\\' {
            j += 1;
        }
        if *b.get(j)? == b'"' {
            self.i = j + 1;
            return Some(std::borrow::Cow::Borrowed(&src[start..j]));
        }
        let mut out = String::from(&src[start..j]);
        loop {
            match *b.get(j)? {
                b'"' => break,
                b'\\' => {
                    let c = match *b.get(j + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4(j + 2)?;
                            j += 4;
                            if (0xd800..0xdc00).contains(&hi) {
                                if b.get(j + 2..j + 4)? != b"\\u" {
                                    return None;
                                }
                                let lo = self.hex4(j + 4)?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return None;
                                }
                                j += 6;
                                char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))?
                            } else {
                                char::from_u32(hi)?
                            }
                        }
                        _ => return None,
                    };
                    out.push(c);
                    j += 2;
                }
                _ => {
                    let next = src[j..].find(['"', '\\']).map_or(b.len(), |k| j + k);
                    out.push_str(&src[j..next]);
                    j = next;
                }
            }
        }
        self.i = j + 1;
        Some(std::borrow::Cow::Owned(out))
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let h = self.s.get(at..at + 4)?;
        if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(h, 16).ok()
    }

    /// A number as `json.loads` reads it: an int without `.`/`e`/`E`, else a float.
    fn number<'py>(&mut self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        let b = self.s.as_bytes();
        let start = self.i;
        let mut j = start;
        while j < b.len() && matches!(b[j], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
            j += 1;
        }
        let tok = &self.s[start..j];
        if tok.is_empty() {
            return None;
        }
        self.i = j;
        if tok.contains(['.', 'e', 'E']) {
            return tok.parse::<f64>().ok().map(|x| PyFloat::new(py, x).into_any());
        }
        if !tok.trim_start_matches('-').bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if let Ok(x) = tok.parse::<i64>() {
            return x.into_pyobject(py).ok().map(Bound::into_any);
        }
        // Beyond 64 bits: Python's own int() of the digits.
        py.get_type::<PyInt>().call1((tok,)).ok()
    }
}
