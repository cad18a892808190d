//! `relaxlab merge`: the `--format jsonl` outputs of the parts of a
//! `run --partition K/N` or a `check --partition K/N` joined into the
//! output the whole run prints (book: cli.md, Corpus-scale runs).
//!
//! Each part starts with a header line naming the command, its part and
//! the number of parts, and the number of files all the parts hold; every
//! other line is one run (`run`) or one file (`check`), with the index of
//! its file among all the files.
//! The parts must be those of one run, each once and none missing; the
//! merged output is a header for part 1 of 1, then the lines ordered by
//! file index (a file's runs keep their order): byte for byte what the
//! run without `--partition` prints.

use std::collections::BTreeMap;

use miette::IntoDiagnostic;

use crate::cli::MergeArgs;
use crate::exit::{Exit, Outcome};
use crate::render::json::PartHeader;
use crate::values::Partition;
use crate::{files, Io};

/// Why parts cannot be merged.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum MergeError {
    #[error("{path} is not the output of a `--format jsonl` run: {why}")]
    #[diagnostic(
        code(relaxlab::merge::not_a_part),
        help("merge joins what `relaxlab run` or `relaxlab check` prints with `--partition K/N --format jsonl`, unchanged")
    )]
    NotAPart { path: String, why: String },
    #[error("{path} is part {part} of {parts} of a `{command}` run over {files} files; {first} is of a `{command0}` run in {parts0} parts over {files0} files")]
    #[diagnostic(
        code(relaxlab::merge::mixed),
        help("merge the parts of one run: the same files, command and number of parts")
    )]
    Mixed {
        path: String,
        part: usize,
        parts: usize,
        command: String,
        files: usize,
        first: String,
        parts0: usize,
        command0: String,
        files0: usize,
    },
    #[error("part {part} is given twice: {first} and {path}")]
    #[diagnostic(code(relaxlab::merge::twice))]
    Twice {
        part: usize,
        first: String,
        path: String,
    },
    #[error("parts missing: {missing} (of {parts})")]
    #[diagnostic(
        code(relaxlab::merge::missing),
        help("every part of the run must be given: a missing part's files would be missing from the report")
    )]
    Missing { missing: String, parts: usize },
}

#[derive(serde::Deserialize)]
struct Index {
    file_index: usize,
}

pub fn merge(args: &MergeArgs, io: &mut Io<'_>) -> Outcome {
    // By part number: the part's path and its lines with their file index.
    let mut parts: BTreeMap<usize, (String, Vec<(usize, String)>)> = BTreeMap::new();
    let mut first: Option<(String, PartHeader)> = None;
    for path in &args.parts {
        let file = files::read(path)?;
        let not_a_part = |why: String| MergeError::NotAPart {
            path: file.path.clone(),
            why,
        };
        let mut lines = file
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let header: PartHeader = lines
            .next()
            .and_then(|(_, l)| serde_json::from_str(l).ok())
            .ok_or_else(|| not_a_part("its first line is not relaxlab's header".to_string()))?;
        let [part, count] = header.partition;
        if part == 0 || part > count {
            return Err(not_a_part(format!("its header names part {part} of {count}")).into());
        }
        match &first {
            None => first = Some((file.path.clone(), header.clone())),
            Some((p0, h0))
                if (h0.partition[1], &h0.relaxlab, h0.files)
                    != (count, &header.relaxlab, header.files) =>
            {
                return Err(MergeError::Mixed {
                    path: file.path.clone(),
                    part,
                    parts: count,
                    command: header.relaxlab,
                    files: header.files,
                    first: p0.clone(),
                    parts0: h0.partition[1],
                    command0: h0.relaxlab.clone(),
                    files0: h0.files,
                }
                .into())
            }
            Some(_) => {}
        }
        if let Some((p, _)) = parts.get(&part) {
            return Err(MergeError::Twice {
                part,
                first: p.clone(),
                path: file.path.clone(),
            }
            .into());
        }
        let mut runs = Vec::new();
        for (n, line) in lines {
            let index: Index = serde_json::from_str(line)
                .map_err(|e| not_a_part(format!("line {}: {e}", n + 1)))?;
            runs.push((index.file_index, line.to_string()));
        }
        parts.insert(part, (file.path.clone(), runs));
    }
    let Some((_, header)) = first else {
        return Ok(Exit::Ok);
    };
    let count = header.partition[1];
    let missing: Vec<String> = (1..=count)
        .filter(|k| !parts.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        let shown = if missing.len() > 10 {
            format!(
                "{}, ... ({} parts)",
                missing[..10].join(", "),
                missing.len()
            )
        } else {
            missing.join(", ")
        };
        return Err(MergeError::Missing {
            missing: shown,
            parts: count,
        }
        .into());
    }
    let mut runs: Vec<(usize, String)> = parts.into_values().flat_map(|(_, r)| r).collect();
    runs.sort_by_key(|(i, _)| *i);
    let whole = PartHeader::new(&header.relaxlab, Partition::WHOLE, header.files);
    writeln!(
        io.out,
        "{}",
        serde_json::to_string(&whole).into_diagnostic()?
    )
    .into_diagnostic()?;
    for (_, line) in runs {
        writeln!(io.out, "{line}").into_diagnostic()?;
    }
    Ok(Exit::Ok)
}
