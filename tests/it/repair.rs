//! `relaxlab repair`: the classic minimums, the printed programs (they
//! parse, lower exactly like the repair the search verified, and pass
//! `relaxlab check` with the verdicts they carry), the algorithms of the
//! library beside their hand-fenced versions, bad input, and golden
//! reports.

use crate::support;

use crate::support::relaxlab;
use relaxlab::engine::{self, Settings};
use relaxlab_semantics::analyses::repair::{apply, every_site, Repairs};
use relaxlab_semantics::ir::{Instr, ModelKey, OpModel, Program, ThreadKind};

/// `repair --format json` of a file under a model: (exit code, report).
fn repair_json(file: &str, model: &str, extra: &[&str]) -> (u8, serde_json::Value) {
    let mut args = vec!["repair", file, "--model", model, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = relaxlab(&args);
    let json = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("{file} {model}: not JSON ({e}): {out}\n{err}"));
    (code, json)
}

/// The classic minimums the issue pins, under the operational models and
/// their axiomatic twins, with the fences each needs.
#[test]
fn classic_minimums() {
    let cases: [(&str, &str, u64, &[&str]); 5] = [
        ("SB", "tso", 2, &["fence(sl)", "fence(sl)"]),
        ("MP", "pso", 1, &["fence(ss)"]),
        ("MP", "pslo", 2, &["fence(ss)", "fence(ll)"]),
        ("2+2W", "pso", 2, &["fence(ss)", "fence(ss)"]),
        ("IRIW", "pslo", 2, &["fence(ll)", "fence(ll)"]),
    ];
    for (test, model, minimum, fences) in cases {
        let file = format!("litmus/classic/{test}.litmus");
        for m in [model.to_string(), format!("ax.{model}")] {
            let (code, json) = repair_json(&file, &m, &[]);
            assert_eq!(code, 0, "{test} {m}: {json}");
            assert_eq!(json["status"], "repaired", "{test} {m}");
            assert_eq!(json["minimum"], minimum, "{test} {m}");
            assert_eq!(json["proven"], true, "{test} {m}");
            let repairs = json["repairs"].as_array().unwrap();
            assert_eq!(repairs.len(), 1, "{test} {m}: one minimum repair");
            let changes: Vec<&str> = repairs[0]["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["change"].as_str().unwrap())
                .collect();
            // ax.pso keeps SPARC's ss: SB would need sl, but these cases
            // are store-store or load-load pairs.
            assert_eq!(changes, fences, "{test} {m}");
        }
    }
}

/// Under `ax.pso` the store-load pairs of SB need `sl` (SPARC's `ss` orders
/// stores only); under RELAXER's operational `pso`, `ss` drains the buffer.
#[test]
fn sb_under_pso_and_ax_pso() {
    let kinds = |m: &str| -> Vec<String> {
        let (code, json) = repair_json("litmus/classic/SB.litmus", m, &[]);
        assert_eq!(code, 0);
        json["repairs"][0]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["change"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(kinds("pso"), ["fence(ss)", "fence(ss)"]);
    assert_eq!(kinds("ax.pso"), ["fence(sl)", "fence(sl)"]);
    assert_eq!(kinds("pslo"), ["fence(sl)", "fence(sl)"]);
}

/// C11: MP needs a release and an acquire; every minimum placement of two
/// changes is listed, cheapest first; SB needs two SC fences.
#[test]
fn c11_repairs() {
    for model in ["c11r", "c11t", "ax.c11", "ax.rc11"] {
        let (code, json) = repair_json("litmus/c11/MP+rlx+rlx.litmus", model, &[]);
        assert_eq!(code, 0, "{model}: {json}");
        assert_eq!(json["minimum"], 2, "{model}");
        let first: Vec<String> = json["repairs"][0]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{} {}",
                    c["where"].as_str().unwrap(),
                    c["change"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(first, ["order rel", "order acq"], "{model}");
        assert_eq!(json["repairs"][0]["cost"], 2, "{model}");
        let costs: Vec<u64> = json["repairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cost"].as_u64().unwrap())
            .collect();
        assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{model}: {costs:?}");
        assert!(
            costs.len() >= 4,
            "{model}: rel/acq orders or fences: {costs:?}"
        );

        let (code, json) = repair_json("litmus/classic/SB.litmus", model, &[]);
        assert_eq!(code, 0, "{model}: {json}");
        assert_eq!(json["minimum"], 2, "{model}");
        let first: Vec<&str> = json["repairs"][0]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["change"].as_str().unwrap())
            .collect();
        assert_eq!(first, ["fence(sc)", "fence(sc)"], "{model}");
    }
    // IRIW: RC11's SC fences forbid it with two fences in the readers;
    // C11 (2011) fences do not, so ax.c11 needs SC stores as well.
    let (_, rc11) = repair_json("litmus/classic/IRIW.litmus", "ax.rc11", &[]);
    assert_eq!(rc11["minimum"], 2);
    let (_, c11) = repair_json("litmus/classic/IRIW.litmus", "ax.c11", &[]);
    assert_eq!(c11["minimum"], 4);
}

/// `--goal sc` removes the non-SC behaviours only: seqlock-broken's
/// condition holds under SC, so `--goal condition` cannot be met, while the
/// assertion failures (non-SC) can be removed.
#[test]
fn goal_sc_and_an_sc_reachable_condition() {
    let (code, json) = repair_json("litmus/algorithms/seqlock-broken.litmus", "pso", &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["status"], "unrepairable");
    let (code, json) = repair_json(
        "litmus/algorithms/seqlock-broken.litmus",
        "pso",
        &["--goal", "sc"],
    );
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["minimum"], 2);
    // Under SC itself there is nothing to remove.
    let (code, json) = repair_json(
        "litmus/algorithms/seqlock-broken.litmus",
        "tso",
        &["--goal", "sc"],
    );
    assert_eq!(code, 0);
    assert_eq!(json["status"], "nothing to repair");
    // SB's only non-SC outcome is the condition's.
    let (_, json) = repair_json("litmus/classic/SB.litmus", "tso", &["--goal", "sc"]);
    assert_eq!(json["minimum"], 2);
}

/// A spurious failure of a weak CAS is no SC violation: SC over the
/// program as written fails spuriously too, so `--goal sc` has nothing to
/// remove under the C11 models, operational and axiomatic alike, where
/// the condition (which only such a failure meets) cannot be repaired.
#[test]
fn a_spurious_failure_is_allowed_by_sc() {
    for m in ["c11r", "c11t", "ax.c11", "ax.rc11"] {
        let file = "litmus/c11/cas-weak.litmus";
        let (code, json) = repair_json(file, m, &["--goal", "sc"]);
        assert_eq!(
            (code, &json["status"]),
            (0, &"nothing to repair".into()),
            "{m}: {json}"
        );
        let (code, json) = repair_json(file, m, &[]);
        assert_eq!(
            (code, &json["status"]),
            (1, &"unrepairable".into()),
            "{m}: {json}"
        );
    }
}

/// Bad input: no condition with `--goal condition`, a model with nothing
/// to insert, an unknown model, a program already correct.
#[test]
fn bad_input_and_nothing_to_repair() {
    let dir = std::env::temp_dir().join(format!("relaxlab-repair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let no_cond = dir.join("nocond.litmus");
    std::fs::write(
        &no_cond,
        "test N\ninit { x = 0; }\nthread P0 { store(x, 1, rlx); }\n",
    )
    .unwrap();
    let path = no_cond.to_string_lossy().to_string();
    let (code, _, err) = relaxlab(&["repair", &path, "--model", "tso"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no final condition"), "{err}");
    assert!(err.contains("--goal sc"), "{err}");
    // With --goal sc it is fine: nothing to repair.
    let (code, out, _) = relaxlab(&["repair", &path, "--model", "tso", "--goal", "sc"]);
    assert_eq!(code, 0);
    assert!(out.contains("nothing to repair"), "{out}");

    for model in ["sc", "ax.sc"] {
        let (code, _, err) = relaxlab(&["repair", "litmus/classic/SB.litmus", "--model", model]);
        assert_eq!(code, 2, "{model}");
        assert!(err.contains("nothing to insert"), "{err}");
    }
    let (code, _, err) = relaxlab(&["repair", "litmus/classic/SB.litmus", "--model", "tos"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `tso`"), "{err}");
    // A cat model: refused by name, not as an unknown operational model.
    for model in ["cat:tso", "cat/tso.cat"] {
        let (code, _, err) = relaxlab(&["repair", "litmus/classic/SB.litmus", "--model", model]);
        assert_eq!(code, 2, "{model}");
        assert!(err.contains("does not take cat models"), "{err}");
        assert!(!err.contains("operational"), "{err}");
    }
    // Hardware barriers under a C11 model: the static check refuses.
    let (code, _, err) = relaxlab(&[
        "repair",
        "litmus/classic/SB+fences.sl.litmus",
        "--model",
        "c11r",
    ]);
    assert_eq!(code, 2, "{err}");
    // Loops under an axiomatic model without --unroll.
    let (code, _, err) = relaxlab(&[
        "repair",
        "litmus/algorithms/dekker-broken.litmus",
        "--model",
        "ax.tso",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--unroll"), "{err}");

    let (code, out, _) = relaxlab(&["repair", "litmus/classic/MP.litmus", "--model", "tso"]);
    assert_eq!(code, 0);
    assert!(out.contains("nothing to repair"), "{out}");
    let (code, out, _) = relaxlab(&[
        "repair",
        "litmus/classic/SB+fences.sl.litmus",
        "--model",
        "tso",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("nothing to repair"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bounds: fewer candidate sites than the program has, or fewer listed
/// repairs than exist, say so and exit 3.
#[test]
fn bounded_searches_exit_3() {
    let (code, json) = repair_json(
        "litmus/classic/SB.litmus",
        "tso",
        &["--max-candidates", "1"],
    );
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["proven"], false);
    assert_eq!(json["complete"], false);
    assert_eq!(json["sites"]["considered"], 1);
    let (code, json) = repair_json(
        "litmus/c11/MP+rlx+rlx.litmus",
        "ax.c11",
        &["--max-solutions", "2"],
    );
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["repairs"].as_array().unwrap().len(), 2);
    assert_eq!(json["more_repairs"], true);
    // Loops unrolled: repairs verified within the bound only.
    let (code, json) = repair_json(
        "litmus/algorithms/dekker-broken.litmus",
        "ax.tso",
        &["--unroll", "1"],
    );
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["minimum"], 2);
    // `--timeout` bounds the whole search: a strong c11r placement of IRIW
    // has millions of states, so the search is cut and says so.
    let (code, json) = repair_json(
        "litmus/c11/IRIW+fences.sc.litmus",
        "c11r",
        &["--timeout", "0.5"],
    );
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["complete"], false);
    assert!(json["repairs"].as_array().unwrap().is_empty(), "{json}");
    assert!(json["bounds"].to_string().contains("--timeout"), "{json}");
    // SB needs both sites: with one, no repair is found among them, which
    // proves nothing about the others (exit 3, not 1).
    let (code, out, _) = relaxlab(&[
        "repair",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--max-candidates",
        "1",
    ]);
    assert_eq!(code, 3);
    assert!(
        out.contains("no repair among 1 of 2 candidate sites"),
        "{out}"
    );
    // MP needs one: the site on the cycle is kept, the minimum is found,
    // and not proven over the sites left out.
    let (code, out, _) = relaxlab(&[
        "repair",
        "litmus/classic/MP.litmus",
        "--model",
        "pso",
        "--max-candidates",
        "1",
    ]);
    assert_eq!(code, 3);
    assert!(out.contains("NOT proven"), "{out}");
}

/// A run of the program as written that a bound cuts short claims no
/// verdict: SB under tso is `sometimes`, and 10 states do not reach the
/// outcome. The report said `as written: never; nothing to remove` (JSON
/// `"verdict": "never"`); it now says what `run` says, that nothing was
/// observed in the states explored, and that nothing was found before the
/// cut.
#[test]
fn a_cut_run_of_the_program_as_written_claims_no_verdict() {
    let args = ["repair", "litmus/classic/SB.litmus", "--model", "tso"];
    let (code, out, _) = relaxlab(&[&args[..], &["--max-states", "10"]].concat());
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("  as written: not observed in 10 states (PARTIAL); nothing found to remove before the run was cut short\n"),
        "{out}"
    );
    assert!(!out.contains("never;"), "{out}");
    assert!(!out.contains("nothing to remove\n"), "{out}");
    let (code, json) = repair_json("litmus/classic/SB.litmus", "tso", &["--max-states", "10"]);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["as_written"]["verdict"], "not observed", "{json}");
    assert_eq!(json["as_written"]["complete"], false, "{json}");
    assert_eq!(json["status"], "stopped", "{json}");
    // A complete run keeps its verdict.
    let (code, json) = repair_json("litmus/classic/SB.litmus", "tso", &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["as_written"]["verdict"], "sometimes", "{json}");
    assert_eq!(json["as_written"]["complete"], true, "{json}");
    assert_eq!(json["repairs"][0]["verdict"], "never", "{json}");
}

/// `--output` writes repair 1; the file parses, and `relaxlab check` on it
/// passes: the `expect` block it carries holds the verified verdicts.
#[test]
fn output_files_pass_check() {
    let dir = std::env::temp_dir().join(format!("relaxlab-repair-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("litmus/classic/SB.litmus", "tso"),
        ("litmus/classic/MP.litmus", "pslo"),
        ("litmus/classic/IRIW.litmus", "pslo"),
        ("litmus/c11/MP+rlx+rlx.litmus", "c11r"),
        ("litmus/c11/MP+rlx+rlx.litmus", "ax.rc11"),
        ("litmus/herd/x86/SB.litmus", "tso"),
        ("litmus/herd/c/SB.litmus", "ax.c11"),
        ("litmus/algorithms/dekker-broken.litmus", "tso"),
        ("litmus/algorithms/peterson-broken.litmus", "pso"),
        ("litmus/algorithms/bakery2-broken.litmus", "tso"),
    ];
    for (i, (file, model)) in cases.iter().enumerate() {
        let out = dir.join(format!("{i}.litmus"));
        let out_s = out.to_string_lossy().to_string();
        let (code, report, err) = relaxlab(&["repair", file, "--model", model, "--output", &out_s]);
        assert_eq!(code, 0, "{file} {model}: {err}");
        assert!(report.contains("repair 1 written to"), "{report}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("expect {"), "{text}");
        let (code, checked, err) = relaxlab(&["check", &out_s]);
        assert_eq!(code, 0, "{file} {model}: {checked}{err}\n{text}");
        // The comments of the source are still there.
        let source = std::fs::read_to_string(file).unwrap();
        if relaxlab_grammar::herd::detect(&source) == relaxlab_grammar::herd::Dialect::Relaxlab {
            for line in source.lines().filter(|l| l.trim_start().starts_with("//")) {
                let in_expect = source
                    .find("expect {")
                    .is_some_and(|e| source.find(line).is_some_and(|at| at > e));
                if !in_expect {
                    assert!(text.contains(line), "{file}: lost comment {line:?}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With loops unrolled (`--unroll`, axiomatic models) a run sees only the
/// executions within the bound: the written file keeps what the runs saw
/// in a comment and claims no verdict. It used to write `expect { ax.sc:
/// always; ax.tso: always; ax.sc.assert: never; ax.tso.assert: never; }`,
/// which `check` can never confirm (partial with `--unroll`, refused
/// without). A loop-free test is not cut by `--unroll`: exact verdicts.
#[test]
fn an_unrolled_repair_writes_no_verdict() {
    let dir = std::env::temp_dir().join(format!("relaxlab-repair-unroll-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("dekker.litmus");
    let out_s = out.to_string_lossy().to_string();
    let (code, report, err) = relaxlab(&[
        "repair",
        "litmus/algorithms/dekker-broken.litmus",
        "--model",
        "ax.tso",
        "--unroll",
        "1",
        "--output",
        &out_s,
    ]);
    assert_eq!(code, 3, "{report}{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("expect {"), "{text}");
    assert!(
        text.ends_with(
            "forall (incs = 0 /\\ flag0 = 0 /\\ flag1 = 0)\n\
             // Loops unrolled 1 time (--unroll 1): these runs saw only the executions within\n\
             // that bound, so they give no verdict, and `expect` has no entry for them:\n\
             //   ax.sc: always observed, no execution seen to fail\n\
             //   ax.tso: always observed, no execution seen to fail\n"
        ),
        "{text}"
    );
    let (code, checked, err) = relaxlab(&["check", &out_s]);
    assert_eq!(code, 0, "{checked}{err}\n{text}");
    let sb = dir.join("SB.litmus");
    let sb_s = sb.to_string_lossy().to_string();
    let (code, report, err) = relaxlab(&[
        "repair",
        "litmus/classic/SB.litmus",
        "--model",
        "ax.tso",
        "--unroll",
        "1",
        "--output",
        &sb_s,
    ]);
    assert_eq!(code, 0, "{report}{err}");
    let text = std::fs::read_to_string(&sb).unwrap();
    assert!(
        text.ends_with("expect { ax.sc: never; ax.tso: never; }\n"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two programs are the same code: instructions (with jump targets),
/// thread kinds (with fork sites), locations and registers.
fn same_code(a: &Program, b: &Program) -> Result<(), String> {
    if a.threads.len() != b.threads.len() {
        return Err("thread count".into());
    }
    for (ta, tb) in a.threads.iter().zip(&b.threads) {
        let ia: Vec<&Instr> = ta.code.iter().map(|i| &i.instr).collect();
        let ib: Vec<&Instr> = tb.code.iter().map(|i| &i.instr).collect();
        if ia != ib {
            return Err(format!("thread {}: {ia:?}\n  vs {ib:?}", ta.name));
        }
        let kind = |k: &ThreadKind| format!("{k:?}");
        if kind(&ta.kind) != kind(&tb.kind) || ta.regs != tb.regs {
            return Err(format!("thread {}: kind or registers", ta.name));
        }
    }
    let locs = |p: &Program| -> Vec<(String, i64)> {
        p.locations
            .iter()
            .map(|l| (l.name.clone(), l.init))
            .collect()
    };
    if locs(a) != locs(b) {
        return Err("locations".into());
    }
    Ok(())
}

/// Every anchor of every litmus file, with every option: the printed text
/// lowers to exactly the program the search ran (`repair::apply`).
#[test]
fn printed_text_lowers_like_the_verified_program() {
    let mut checked = 0;
    for path in support::litmus_files("litmus") {
        let rel = support::relative(&path);
        if rel.starts_with("litmus/bench/") || rel.starts_with("litmus/kernel/") {
            continue;
        }
        let file = relaxlab::files::read(&path).unwrap();
        let (_, source) = relaxlab::load::relaxlab_text(&file).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        let test = relaxlab_grammar::parse(&source).unwrap();
        let c11_ok = relaxlab_grammar::check_model(&program, ModelKey::Op(OpModel::C11r)).is_ok();
        let mut families = vec![Repairs::Pslo];
        if c11_ok {
            families.push(Repairs::C11);
        }
        for family in families {
            let sites = every_site(&program, family);
            for (s, site) in sites.iter().enumerate() {
                for &option in &site.options {
                    let placement = vec![(s, option)];
                    let (text, diff) = relaxlab::commands::repair::text::repaired_text(
                        &source,
                        &test,
                        &program,
                        &sites,
                        &placement,
                        &relaxlab::commands::repair::text::Verdicts::default(),
                        ("a", "b"),
                    );
                    let lowered = relaxlab_grammar::load(&text)
                        .unwrap_or_else(|e| panic!("{rel}: {site:?} {option:?}: {e:?}\n{text}"));
                    let applied = apply(&program, &sites, &placement);
                    if let Err(why) = same_code(&lowered, &applied) {
                        panic!("{rel}: {site:?} {option:?}: {why}\n{text}");
                    }
                    assert!(diff.contains(&option.text()), "{rel}: {diff}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2000, "only {checked} placements checked");
}

/// The number of barriers a program has as `key` runs it (after the
/// mapping): the cost of the library's hand-fenced versions in fences.
fn barriers(path: &str, key: ModelKey) -> usize {
    let file = relaxlab::files::read(std::path::Path::new(path)).unwrap();
    let program = relaxlab::load::program(&file).unwrap();
    let ran = engine::program_for(&program, key, &Settings::default());
    ran.threads
        .iter()
        .flat_map(|t| &t.code)
        .filter(|i| matches!(i.instr, Instr::Fence { .. }))
        .count()
}

/// The algorithms of the library under tso and pso: each broken version is
/// repaired with at most as many fences as its hand-fenced (or `sc`)
/// version has barriers as the model runs it, and the hand-fenced version
/// is correct there. The numbers themselves are in the golden reports.
#[test]
fn algorithms_beside_the_library() {
    // (broken, goal, library version)
    let cases = [
        ("dekker-broken", "condition", "dekker-fenced"),
        ("peterson-broken", "condition", "peterson-sc"),
        ("bakery2-broken", "condition", "bakery2-sc"),
        ("spinlock-cas-rlx", "condition", "spinlock-cas"),
        ("seqlock-broken", "sc", "seqlock"),
        ("spsc-ring-broken", "condition", "spsc-ring"),
    ];
    for (broken, goal, library) in cases {
        for model in ["tso", "pso"] {
            let file = format!("litmus/algorithms/{broken}.litmus");
            let (code, json) = repair_json(&file, model, &["--goal", goal]);
            assert_eq!(code, 0, "{broken} {model}: {json}");
            let lib = format!("litmus/algorithms/{library}.litmus");
            let key = ModelKey::Op(OpModel::from_name(model).unwrap());
            let (code, out, _) = relaxlab(&["check", &lib, "--only", model]);
            assert_eq!(code, 0, "{lib} must be correct under {model}: {out}");
            let ours = json["minimum"].as_u64().unwrap_or(0) as usize;
            let theirs = barriers(&lib, key);
            assert!(
                ours <= theirs,
                "{broken} {model}: {ours} fences, the library's {library} has {theirs}"
            );
            if json["status"] == "repaired" {
                assert_eq!(json["proven"], true, "{broken} {model}");
            }
        }
    }
}

/// Golden reports: the table output of representative repairs.
#[test]
fn golden_reports() {
    let cases: &[(&str, &[&str])] = &[
        ("SB-tso", &["litmus/classic/SB.litmus", "--model", "tso"]),
        ("MP-pso", &["litmus/classic/MP.litmus", "--model", "pso"]),
        ("MP-pslo", &["litmus/classic/MP.litmus", "--model", "pslo"]),
        (
            "2+2W-pso",
            &["litmus/classic/2+2W.litmus", "--model", "pso"],
        ),
        (
            "IRIW-pslo",
            &["litmus/classic/IRIW.litmus", "--model", "pslo"],
        ),
        ("MP-tso", &["litmus/classic/MP.litmus", "--model", "tso"]),
        (
            "MP+rlx+rlx-c11r",
            &["litmus/c11/MP+rlx+rlx.litmus", "--model", "c11r"],
        ),
        (
            "MP+rlx+rlx-ax.rc11",
            &["litmus/c11/MP+rlx+rlx.litmus", "--model", "ax.rc11"],
        ),
        (
            "IRIW-ax.c11",
            &["litmus/classic/IRIW.litmus", "--model", "ax.c11"],
        ),
        (
            "SB-x86-tso",
            &["litmus/herd/x86/SB.litmus", "--model", "tso"],
        ),
        (
            "dekker-tso",
            &["litmus/algorithms/dekker-broken.litmus", "--model", "tso"],
        ),
        (
            "dekker-pso",
            &["litmus/algorithms/dekker-broken.litmus", "--model", "pso"],
        ),
        (
            "peterson-tso",
            &["litmus/algorithms/peterson-broken.litmus", "--model", "tso"],
        ),
        (
            "peterson-pso",
            &["litmus/algorithms/peterson-broken.litmus", "--model", "pso"],
        ),
        (
            "bakery2-tso",
            &["litmus/algorithms/bakery2-broken.litmus", "--model", "tso"],
        ),
        (
            "bakery2-pso",
            &["litmus/algorithms/bakery2-broken.litmus", "--model", "pso"],
        ),
        (
            "spinlock-pso",
            &[
                "litmus/algorithms/spinlock-cas-rlx.litmus",
                "--model",
                "pso",
            ],
        ),
        (
            "spsc-pso",
            &[
                "litmus/algorithms/spsc-ring-broken.litmus",
                "--model",
                "pso",
            ],
        ),
        (
            "seqlock-pso",
            &["litmus/algorithms/seqlock-broken.litmus", "--model", "pso"],
        ),
        (
            "seqlock-pso-goal-sc",
            &[
                "litmus/algorithms/seqlock-broken.litmus",
                "--model",
                "pso",
                "--goal",
                "sc",
            ],
        ),
        (
            "seqlock-pslo-goal-sc",
            &[
                "litmus/algorithms/seqlock-broken.litmus",
                "--model",
                "pslo",
                "--goal",
                "sc",
            ],
        ),
    ];
    for (name, args) in cases {
        let mut full = vec!["repair"];
        full.extend_from_slice(args);
        let (code, out, err) = relaxlab(&full);
        let text = format!(
            "$ relaxlab {}\n{out}{err}[exit code {code}]\n",
            full.join(" ")
        );
        insta::with_settings!({
            snapshot_path => "../repair_golden",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name.to_string(), text);
        });
    }
}
