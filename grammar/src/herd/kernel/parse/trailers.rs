//! The trailers of a herd C test (herd's constraint parser): `locations`,
//! `filter`, the final condition (`exists`, `~exists`, `forall`) and its
//! propositions (`/\`, `\/`, `~`, `x=1`, `0:r0=1`), and the `regions`,
//! `scopes` and `levels` declarations.
//!
//! book: herd.md, The supported subset

use super::super::ast::*;
use super::{join, P, R};
use crate::herd::error::HerdError;
use crate::herd::lexer::Tok;

impl P<'_> {
    pub(super) fn trailers(&mut self, t: &mut Test) -> R<()> {
        loop {
            match (self.cur.peek(), self.cur.peek_at(1)) {
                (Tok::Eof, _) => return Ok(()),
                (Tok::Ident(w @ ("regions" | "scopes" | "levels")), Tok::Colon) => {
                    self.cur.bump();
                    self.cur.bump();
                    self.regions(t, w)?;
                }
                (Tok::Ident("locations"), _) => {
                    self.cur.bump();
                    self.cur.expect(Tok::LBracket, "`[` after `locations`")?;
                    loop {
                        while self.cur.eat(Tok::Semi) {}
                        if self.cur.eat(Tok::RBracket) {
                            break;
                        }
                        let l = self.observable()?;
                        t.locations.push(l);
                    }
                }
                (Tok::Ident("filter"), _) => {
                    self.cur.bump();
                    t.filter = Some(self.prop()?);
                }
                (Tok::Ident(q @ ("exists" | "forall")), _) => {
                    let start = self.cur.bump().1;
                    let p = self.prop()?;
                    t.condition = Some((
                        if q == "exists" { "exists" } else { "forall" },
                        p,
                        join(start, self.cur.prev_span()),
                    ));
                }
                (Tok::Tilde | Tok::Bang, Tok::Ident("exists")) => {
                    let start = self.cur.bump().1;
                    self.cur.bump();
                    let p = self.prop()?;
                    t.condition = Some(("~exists", p, join(start, self.cur.prev_span())));
                }
                _ => {
                    return Err(self
                        .cur
                        .error("`exists`, `~exists`, `forall`, `locations` or `filter`"))
                }
            }
        }
    }

    /// `regions: x:R, y:S` (herd's memory regions; `scopes:`/`levels:`
    /// are refused).
    fn regions(&mut self, t: &mut Test, what: &str) -> R<()> {
        if what != "regions" {
            return Err(HerdError::unsupported(
                format!("`{what}:` (GPU scope trees)"),
                self.cur.prev_span(),
                "relaxlab reads herd's `regions:` only",
            ));
        }
        while let (Tok::Ident(x), Tok::Colon) = (self.cur.peek(), self.cur.peek_at(1)) {
            if matches!(x, "locations" | "filter" | "exists" | "forall") {
                break;
            }
            self.cur.bump();
            self.cur.bump();
            let (r, _) = self.cur.ident("a region name")?;
            t.regions.push((x.to_string(), r.to_string()));
            self.cur.eat(Tok::Comma);
        }
        Ok(())
    }

    fn observable(&mut self) -> R<Loc> {
        let start = self.cur.span();
        match (self.cur.peek(), self.cur.peek_at(1)) {
            (Tok::Int(_), Tok::Colon) => {
                let (th, _) = self.cur.int("a thread number")?;
                self.cur.bump();
                let (r, rs) = self.cur.ident("a register")?;
                Ok(Loc::Reg(th as usize, r.to_string(), join(start, rs)))
            }
            (Tok::LBracket, _) => {
                self.cur.bump();
                let (x, s) = self.cur.ident("a location")?;
                self.cur.expect(Tok::RBracket, "`]`")?;
                Ok(Loc::Mem(x.to_string(), s))
            }
            (Tok::Ident(x), Tok::LBracket) => {
                // A cell of an array, `y[1]`.
                self.cur.bump();
                self.cur.bump();
                let (i, _) = self.cur.int("the index of a cell")?;
                let close = self.cur.expect(Tok::RBracket, "`]`")?;
                Ok(Loc::Mem(format!("{x}[{i}]"), join(start, close)))
            }
            (Tok::Ident(x), _) => {
                let (_, s) = self.cur.bump();
                Ok(Loc::Mem(x.to_string(), s))
            }
            _ => Err(self.cur.error("a register `N:reg` or a location")),
        }
    }

    fn prop(&mut self) -> R<Prop> {
        self.cur.enter()?;
        let a = self.prop_or()?;
        let r = if self.cur.eat(Tok::Implies) {
            Ok(Prop::Implies(Box::new(a), Box::new(self.prop()?)))
        } else {
            Ok(a)
        };
        self.cur.leave();
        r
    }

    fn prop_or(&mut self) -> R<Prop> {
        let mut a = self.prop_and()?;
        while self.cur.eat(Tok::Vee) || self.cur.eat(Tok::OrOr) {
            let b = self.prop_and()?;
            a = Prop::Or(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn prop_and(&mut self) -> R<Prop> {
        let mut a = self.prop_not()?;
        while self.cur.eat(Tok::Wedge) || self.cur.eat(Tok::AndAnd) {
            let b = self.prop_not()?;
            a = Prop::And(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn prop_not(&mut self) -> R<Prop> {
        let not_word = self.cur.at_word("not") && self.cur.peek_at(1) == Tok::LParen;
        if self.cur.eat(Tok::Tilde)
            || self.cur.eat(Tok::Bang)
            || (not_word && self.cur.eat(self.cur.peek()))
        {
            self.cur.enter()?;
            let p = self.prop_not()?;
            self.cur.leave();
            return Ok(Prop::Not(Box::new(p)));
        }
        match self.cur.peek() {
            Tok::LParen => {
                self.cur.bump();
                let p = self.prop()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                Ok(p)
            }
            Tok::Ident("true") => {
                self.cur.bump();
                Ok(Prop::Const(true))
            }
            Tok::Ident("false") => {
                self.cur.bump();
                Ok(Prop::Const(false))
            }
            _ => {
                let start = self.cur.span();
                let l = self.observable()?;
                let ne = match self.cur.peek() {
                    Tok::Assign | Tok::EqEq => false,
                    Tok::NotEq => true,
                    _ => return Err(self.cur.error("`=` or `!=`")),
                };
                self.cur.bump();
                let v = self.value()?;
                Ok(Prop::Atom(l, ne, v, join(start, self.cur.prev_span())))
            }
        }
    }
}
