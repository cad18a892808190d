//! herd7's arrays in its C semantics (book: herd.md, Arrays): an array of
//! the init block, `int y[2] = {1,2};`, is one location per cell, named
//! `y[0]`, `y[1]`, as in relaxlab's language (book: language.md, Arrays);
//! its name is the address of its first cell, which is all that herd's C
//! reaches from code (`*y`); the condition names any cell, `locations` the
//! whole array.

use relaxlab_semantics::csem::MAX_INTEGER;
use relaxlab_semantics::ir::{Array, LocId, Observable, Span, Value};

use super::ast::Expr;
use crate::herd::emit::HerdArray;
use crate::herd::error::HerdError;

type R<T> = Result<T, HerdError>;

/// The arrays of a test: herd's name and the locations of the cells.
#[derive(Default)]
pub(super) struct Arrays(pub(super) Vec<(String, Vec<usize>)>);

impl Arrays {
    /// Declares the cells of `a` among `locations`, named `y[0]`, `y[1]`,
    /// ... after herd's name of the array.
    pub(super) fn declare(
        &mut self,
        src: &str,
        a: &HerdArray,
        locations: &mut Vec<(String, Value, Span)>,
    ) -> R<()> {
        let herd_name = src
            .get(a.name_span.start as usize..a.name_span.end as usize)
            .unwrap_or(&a.name)
            .to_string();
        if let Some(v) = a
            .values
            .iter()
            .flatten()
            .find(|v| v.unsigned_abs() > MAX_INTEGER as u64)
        {
            return Err(HerdError::unsupported(
                format!("the integer {v} in a cell"),
                a.span,
                "locations are values in herd's C semantics, and integers beyond 2^60 are reserved for them",
            ));
        }
        let mut cells = Vec::with_capacity(a.len);
        for i in 0..a.len {
            let v = a.values.as_ref().map_or(0, |v| v[i]);
            cells.push(locations.len());
            locations.push((format!("{herd_name}[{i}]"), v, a.span));
        }
        self.0.push((herd_name, cells));
        Ok(())
    }

    /// The cells of the array `name`, if it is one.
    pub(super) fn cells(&self, name: &str) -> Option<&[usize]> {
        self.0
            .iter()
            .find(|(a, _)| a == name)
            .map(|(_, c)| c.as_slice())
    }

    /// A cell `y[i]` named in the condition or `locations`: an array of
    /// the init block and an index inside it, or refused as herd7 does.
    pub(super) fn cell(&self, x: &str, span: Span) -> R<Option<usize>> {
        let Some((base, index)) = x.split_once('[') else {
            return Ok(None);
        };
        let index = index.trim_end_matches(']');
        match self.cells(base) {
            Some(cells) => match index.parse::<usize>().ok().and_then(|i| cells.get(i)) {
                Some(&c) => Ok(Some(c)),
                None => Err(HerdError::array(
                    format!("no cell {index} in the array `{base}`"),
                    "outside the array",
                    span,
                    format!(
                        "`{base}` has {} cells: `{base}[0]` to `{base}[{}]` (book: herd.md, Arrays)",
                        cells.len(),
                        cells.len() - 1
                    ),
                )),
            },
            None => Err(HerdError::array(
                format!("`{base}` is not an array"),
                "indexed as an array",
                span,
                format!("declare the array in the init block: `int {base}[2];` (book: herd.md, Arrays)"),
            )),
        }
    }

    /// The program's arrays: `whole` the indices of those `locations`
    /// names whole, `alone` what the condition, the filter and
    /// `locations` name one by one.
    pub(super) fn program_arrays(&self, whole: &[usize], alone: &[Observable]) -> Vec<Array> {
        self.0
            .iter()
            .enumerate()
            .map(|(a, (name, cells))| {
                let cells: Vec<LocId> = cells.iter().map(|&c| LocId::new(c)).collect();
                Array {
                    name: name.clone(),
                    observed_whole: whole.contains(&a),
                    observed_cells: cells
                        .iter()
                        .copied()
                        .filter(|&c| alone.contains(&Observable::Loc(c)))
                        .collect(),
                    cells,
                }
            })
            .collect()
    }
}

/// Arithmetic on an array parameter (`y+1`, the address of `y[1]` in C)
/// is refused: herd7 refuses `*(y+1)` as a mixed-size test, and reads
/// `int *r = y+1;` as the address of a location of its own outside the
/// array, which no condition can name (book: herd.md, Arrays). An offset of
/// 0 is the array's address itself, as in herd.
pub(super) fn array_arithmetic(array_params: &[String], a: &Expr, c: &Expr, span: Span) -> R<()> {
    let array = |e: &Expr| match e {
        Expr::Name(n, _) => array_params.iter().find(|p| *p == n),
        _ => None,
    };
    let zero = |e: &Expr| matches!(e, Expr::Const(0, _));
    let Some(y) = array(a).or_else(|| array(c)) else {
        return Ok(());
    };
    if zero(a) || zero(c) {
        return Ok(());
    }
    Err(HerdError::array(
        format!("arithmetic on the address of the array `{y}`"),
        "an address past the array's first cell",
        span,
        format!(
            "herd7 reaches only the first cell of a C array from code (`*{y}`): it refuses \
             `*({y}+1)` as a mixed-size test and has no `{y}[1]` in code (book: herd.md, Arrays)"
        ),
    ))
}
