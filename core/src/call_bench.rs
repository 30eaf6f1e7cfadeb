//! The cost of one JSON call, native: the five ops of [`CASES`] through
//! [`crate::call_json`], side by side in one run. Ignored (it prints, it asserts no figure):
//!
//! `cargo test --release -p gunbai --lib call_bench -- --ignored --nocapture`
//!
//! prints `native.<op>_us` lines (µs per call, the best of several rounds). For instruction
//! counts, run the same test binary under callgrind with `GUNBAI_BENCH_OP=<op>` (one op)
//! and `GUNBAI_BENCH_ITERS=<n>`, collecting inside `call_json` only:
//!
//! `valgrind --tool=callgrind --toggle-collect='gunbai::call_json' <test binary> call_bench --ignored`
//!
//! (instructions per call = the total / n).

/// The measured calls: (key, op, argument text).
pub(crate) const CASES: [(&str, &str, &str); 5] = [
    ("meta_version", "meta.version", "{}"),
    ("dice_roll", "dice.roll", r#"{"expr":"1d100","seed":1}"#),
    ("coc7_check", "coc7.check", r#"{"skill":50,"seed":1}"#),
    ("command_run", "command.run", r#"{"text":"CC(1)<=53","system":"coc7","seed":1}"#),
    ("world_trigger_check", "world_trigger.check", r#"{"dice":7,"seed":1}"#),
];

#[test]
#[ignore]
fn call_bench() {
    let only = std::env::var("GUNBAI_BENCH_OP").ok();
    let iters: u32 = std::env::var("GUNBAI_BENCH_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let rounds = if only.is_some() { 1 } else { 7 };
    // The harness prints "test … ... " without a newline: start the figures on a line of their own.
    println!();
    for (key, op, args) in CASES {
        if only.as_deref().is_some_and(|o| o != op) {
            continue;
        }
        let out = crate::call_json(op, args, None);
        assert!(out.starts_with(r#"{"ok":"#), "{op}: {out}");
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            let t = std::time::Instant::now();
            for _ in 0..iters {
                std::hint::black_box(crate::call_json(
                    std::hint::black_box(op),
                    std::hint::black_box(args),
                    None,
                ));
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("native.{key}_us {:.3}", best / f64::from(iters) * 1e6);
    }
}

/// `call_json`'s envelope, written directly, is the text of the `Value` envelope around
/// [`crate::call`]'s result, for each op of the table and for refusals (bad text, an
/// unknown op, bad arguments, an op's own error).
#[test]
fn envelope_is_the_value_envelope() {
    let refusals = [
        ("dice.roll", "{\"expr\":"),
        ("dice.nope", "{}"),
        ("dice.nope", "[1"),
        ("dice.roll", r#"{"expr":"1d100","seed":-1}"#),
        ("dice.roll", r#"{"expr":"1d100","sed":1}"#),
        ("dice.roll", r#"{"expr":"1001d6"}"#),
        ("command.run", r#"{"text":"CC(1)<=53","system":"nope"}"#),
    ];
    for (_, op, args) in CASES.iter().copied().chain(refusals.iter().map(|(op, a)| ("", *op, *a))) {
        let want = match crate::parse_args_json(args).and_then(|v| crate::call(op, v)) {
            Ok(v) => crate::json::single("ok", v),
            Err(e) => crate::json::error_envelope(e),
        };
        assert_eq!(crate::call_json(op, args, None), want.to_string(), "{op} {args}");
        let mut buf = b"left over".to_vec();
        crate::call_json_into(op, args, Some(7), &mut buf);
        assert!(buf.starts_with(if want.get("ok").is_some() { b"{\"ok\":" } else { b"{\"error\":" }));
    }
}
