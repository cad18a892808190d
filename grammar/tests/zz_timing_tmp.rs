#[path = "../benches/parse.rs"]
#[allow(dead_code)]
mod b;
#[test]
fn timing() {
    for n in [500usize, 1000, 2000] {
        let src = b::big_test(n);
        let t = std::time::Instant::now();
        let mut lx = 0;
        for _ in relaxlab_grammar::ast::Ident::new("a", Default::default())
            .name
            .chars()
        {}
        let ast = relaxlab_grammar::parse(&src).unwrap();
        let p = t.elapsed();
        let _ = relaxlab_grammar::lower(&ast).unwrap();
        let l = t.elapsed() - p;
        lx += 1;
        eprintln!("n={n} parse {:?} lower {:?} {lx}", p, l);
    }
}
