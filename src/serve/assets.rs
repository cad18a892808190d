//! The page's assets, embedded in the binary. `viz-global.js` is Viz.js
//! (Graphviz compiled to WebAssembly, npm `@viz-js/viz`), vendored under
//! `assets/vendor/` with its notice: the page draws execution graphs
//! from the DOT the CLI writes, with no download.

const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "viz-global.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/vendor/viz-global.js"),
    ),
];

/// The content type and body of the asset `name`.
pub(crate) fn find(name: &str) -> Option<(&'static str, &'static str)> {
    ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, t, body)| (*t, *body))
}
