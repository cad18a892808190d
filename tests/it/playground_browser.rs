//! The playground in a real browser: Debian's chromium, driven through
//! chromedriver (WebDriver, with `fantoccini`), against a server started
//! in-process on a free port.
//!
//! It loads SB from the library, runs it under tso and checks that the
//! table shows its 4 outcomes and draws a witness's execution graph, then
//! starts the stepper under tso and clicks transitions until the weak
//! outcome (`r0 = 0` on both threads), goes back and forward, and saves a
//! screenshot to `target/playground-screenshot.png`.
//!
//! It draws execution graphs at two window sizes and measures them in the
//! page (every node's label inside its box, the threads' columns left to
//! right in order, no edge label over another or over a box), saving a
//! screenshot of each (`target/playground-graph-WIDTH.png`). It follows
//! links with bad parameters (a test not in the library, unknown models,
//! mapping and unroll) and checks that the page names each one and runs
//! nothing, that the header stops naming a library file once the editor
//! holds another test, and that a partial result names the server's bound.
//!
//! Without chromium and chromedriver the test says loudly that it skipped
//! and passes, on a developer's machine only: under CI (`CI` set) it
//! fails, and `.ci/run` installs both.

use crate::support;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// `name` on the `PATH` (or under /usr/bin).
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free port")
}

/// Polls the JavaScript expression `condition` until it is true.
async fn wait_until(client: &Client, condition: &str, what: &str) {
    let started = Instant::now();
    loop {
        let v = client
            .execute(&format!("return Boolean({condition});"), vec![])
            .await
            .expect("the page runs scripts");
        if v == Value::Bool(true) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what} ({condition})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clicks the element `at` finds.
async fn click(client: &Client, at: Locator<'_>) {
    client.find(at).await.unwrap().click().await.unwrap();
}

/// Unticks every model of the run panel.
async fn untick_models(client: &Client) {
    for input in client
        .find_all(Locator::Css("input[name=model]:checked"))
        .await
        .unwrap()
    {
        input.click().await.unwrap();
    }
}

async fn eval(client: &Client, expression: &str) -> Value {
    client
        .execute(&format!("return {expression};"), vec![])
        .await
        .expect("the page runs scripts")
}

/// Clicks the enabled transition whose label starts with `label`.
async fn take(client: &Client, label: &str) {
    let before = eval(client, "document.querySelectorAll('#history li').length").await;
    let moves = client
        .find_all(Locator::Css("#moves button.move"))
        .await
        .unwrap();
    let mut labels = Vec::new();
    for m in moves {
        let text = m
            .find(Locator::Css(".label"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if text.starts_with(label) {
            m.click().await.unwrap();
            wait_until(
                client,
                &format!("document.querySelectorAll('#history li').length > {before}"),
                &format!("the transition `{label}` to be taken"),
            )
            .await;
            return;
        }
        labels.push(text);
    }
    panic!("no enabled transition `{label}`; enabled: {labels:#?}");
}

async fn drive(client: &Client, url: &str) {
    client.set_window_size(1600, 1250).await.unwrap();
    client.goto(url).await.unwrap();
    wait_until(client, "document.body.dataset.ready === 'true'", "the page").await;

    // Load SB from the library and run it under tso only.
    click(
        client,
        Locator::Css(r#".library a[data-path="classic/SB.litmus"]"#),
    )
    .await;
    wait_until(
        client,
        "document.querySelector('#source').value.includes('test SB ')",
        "SB in the editor",
    )
    .await;
    untick_models(client).await;
    click(client, Locator::Css("input[name=model][value=tso]")).await;
    click(client, Locator::Id("run")).await;
    let rows = "document.querySelectorAll('section.run[data-model=tso] tr.row')";
    wait_until(client, &format!("{rows}.length > 0"), "the tso table").await;
    assert_eq!(eval(client, &format!("{rows}.length")).await, json!(4));
    assert_eq!(
        eval(client, "document.querySelectorAll('section.run').length").await,
        json!(1)
    );
    // The weak outcome's row: its witness and its execution graph.
    click(client, Locator::Css("section.run[data-model=tso] tr.row")).await;
    wait_until(client, "document.querySelector('.graph svg')", "the graph").await;
    let witness = eval(
        client,
        "document.querySelector('.details .witness').textContent",
    )
    .await;
    assert!(
        witness.as_str().unwrap().contains("P0: commit x = 1"),
        "{witness}"
    );

    // Step a TSO run by hand to the weak outcome.
    click(client, Locator::Css("#step-model option[value=tso]")).await;
    click(client, Locator::Id("step-start")).await;
    wait_until(
        client,
        "document.querySelector('#moves button.move')",
        "the stepper",
    )
    .await;
    for label in [
        "P0: store(x, 1, rlx)",
        "P1: store(y, 1, rlx)",
        "P0: r0 = load(y, rlx)",
        "P1: r0 = load(x, rlx)",
        "P0: commit x = 1",
        "P1: commit y = 1",
        "P0: end",
        "P1: end",
    ] {
        take(client, label).await;
    }
    let status = "document.querySelector('#step-status')";
    wait_until(
        client,
        &format!("{status}.dataset.kind === 'final'"),
        "the final state",
    )
    .await;
    let text = eval(client, &format!("{status}.textContent")).await;
    assert!(text.as_str().unwrap().contains("P0:r0=0 P1:r0=0"), "{text}");
    // Back undoes the last move, forward takes it again.
    click(client, Locator::Id("step-back")).await;
    wait_until(
        client,
        &format!("{status}.dataset.kind === 'running'"),
        "back",
    )
    .await;
    click(client, Locator::Id("step-forward")).await;
    wait_until(
        client,
        &format!("{status}.dataset.kind === 'final'"),
        "forward",
    )
    .await;

    let png = client.screenshot().await.unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| support::root().join("target"));
    std::fs::create_dir_all(&target).unwrap();
    let path = target.join("playground-screenshot.png");
    std::fs::write(&path, png).unwrap();
    eprintln!("playground screenshot: {}", path.display());
}

/// Runs `drive` against a playground with `limits` in headless chromium;
/// skips (loudly, and only off CI) without chromium and chromedriver.
fn in_chromium<F, Fut>(limits: relaxlab::serve::Limits, drive: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = Client>,
{
    let (Some(chromium), Some(driver)) = (
        program("chromium").or_else(|| program("chromium-browser")),
        program("chromedriver"),
    ) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the browser test: install chromium and chromium-driver (.ci/run does)"
        );
        eprintln!(
            "\n********************************************************************\n\
             SKIPPED the playground browser test: chromium and chromedriver are\n\
             not installed (apt-get install chromium chromium-driver). CI runs it.\n\
             ********************************************************************\n"
        );
        return;
    };
    let runtime = relaxlab::serve::runtime().unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let app = relaxlab::serve::App::new(limits, "127.0.0.1", port).unwrap();
        tokio::spawn(async move {
            axum::serve(listener, relaxlab::serve::router(app))
                .await
                .unwrap()
        });

        let driver_port = free_port();
        let _driver = Killed(
            Command::new(&driver)
                .arg(format!("--port={driver_port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let profile = std::env::temp_dir().join(format!(
            "relaxlab-chromium-{}-{driver_port}",
            std::process::id()
        ));
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1600,1250",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let webdriver = format!("http://127.0.0.1:{driver_port}");
        let started = Instant::now();
        let client = loop {
            let builder =
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps.clone())
                    .connect(&webdriver)
                    .await;
            match builder {
                Ok(c) => break c,
                Err(e) if started.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("cannot start chromium through chromedriver: {e}"),
            }
        };
        let url = format!("http://127.0.0.1:{port}/");
        let result = tokio::time::timeout(Duration::from_secs(300), drive(client, url)).await;
        let _ = std::fs::remove_dir_all(&profile);
        let client = result.expect("the browser test timed out");
        let _ = client.close().await;
    });
}

#[test]
fn sb_runs_and_steps_to_the_weak_outcome_in_chromium() {
    in_chromium(
        relaxlab::serve::Limits::default(),
        |client, url| async move {
            drive(&client, &url).await;
            client
        },
    );
}

/// Where the screenshots go: the target directory.
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| support::root().join("target"));
    std::fs::create_dir_all(&target).unwrap();
    target
}

/// What is wrong with the drawing of the graph shown in the page, measured
/// in the SVG: a node label outside its box, thread columns out of order
/// (or overlapping), an edge label over another or over a box. Each
/// problem is one line naming what it concerns.
const GRAPH_PROBLEMS: &str = r#"
const svg = document.querySelector('.graph svg');
const problems = [];
const shape = (g) => g.querySelector('polygon, path, ellipse').getBBox();
const over = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5
  && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const nodes = [];
for (const n of svg.querySelectorAll('g.node')) {
  const texts = [...n.querySelectorAll('text')];
  if (texts.length === 0) continue;
  const box = shape(n);
  nodes.push(box);
  for (const t of texts) {
    const r = t.getBBox();
    if (r.x < box.x - 0.5 || r.x + r.width > box.x + box.width + 0.5
        || r.y < box.y - 0.5 || r.y + r.height > box.y + box.height + 0.5) {
      problems.push(`node label "${t.textContent}" spills out of its box`);
    }
  }
}
const columns = [...svg.querySelectorAll('g.cluster')]
  .map((c) => ({ name: c.querySelector('title').textContent, box: shape(c) }))
  .filter((c) => /^cluster_t\d+$/.test(c.name))
  .map((c) => ({ thread: Number(c.name.slice('cluster_t'.length)), box: c.box }))
  .sort((a, b) => a.thread - b.thread);
for (let i = 1; i < columns.length; i++) {
  const [left, right] = [columns[i - 1], columns[i]];
  if (left.box.x + left.box.width > right.box.x) {
    problems.push(`thread ${left.thread} is not left of thread ${right.thread}`);
  }
}
const labels = [...svg.querySelectorAll('g.edge text')]
  .map((t) => ({ text: t.textContent, box: t.getBBox() }));
for (let i = 0; i < labels.length; i++) {
  for (let j = i + 1; j < labels.length; j++) {
    if (over(labels[i].box, labels[j].box)) {
      problems.push(`edge labels "${labels[i].text}" and "${labels[j].text}" overlap`);
    }
  }
  for (const box of nodes) {
    if (over(labels[i].box, box)) problems.push(`edge label "${labels[i].text}" lies over a box`);
  }
}
return { problems, threads: columns.length, labels: labels.length, nodes: nodes.length };
"#;

/// Opens `query`, clicks the row whose values are `row` (as the table
/// shows them), and measures its graph; saves a screenshot as `name`.
async fn graph_of(client: &Client, url: &str, query: &str, row: &[&str], name: &str) -> Value {
    client.goto(&format!("{url}?{query}")).await.unwrap();
    wait_until(client, "document.body.dataset.ready === 'true'", "the page").await;
    let rows = "document.querySelectorAll('section.run tr.row')";
    wait_until(client, &format!("{rows}.length > 0"), "the table").await;
    let values = serde_json::to_string(row).unwrap();
    let clicked = eval(
        client,
        &format!(
            "(() => {{ for (const tr of {rows}) {{
                 const v = [...tr.querySelectorAll('td')].slice(1, {n} + 1).map((td) => td.textContent);
                 if (JSON.stringify(v) === JSON.stringify({values})) {{ tr.click(); return true; }}
               }} return false; }})()",
            n = row.len()
        ),
    )
    .await;
    assert_eq!(clicked, json!(true), "no row {row:?} at {query}");
    wait_until(client, "document.querySelector('.graph svg')", "the graph").await;
    client
        .execute("document.querySelector('.graph').scrollIntoView();", vec![])
        .await
        .unwrap();
    let measured = client
        .execute(GRAPH_PROBLEMS, vec![])
        .await
        .expect("the page runs scripts");
    let png = client.screenshot().await.unwrap();
    let path = screenshot_dir().join(format!("playground-graph-{name}.png"));
    std::fs::write(&path, png).unwrap();
    eprintln!("graph screenshot: {}", path.display());
    measured
}

#[test]
fn execution_graphs_read_well_at_two_window_sizes() {
    in_chromium(
        relaxlab::serve::Limits::default(),
        |client, url| async move {
            for (width, height) in [(1600, 1250), (1000, 800)] {
                client.set_window_size(width, height).await.unwrap();
                for (query, row, threads, name) in [
                    // A lifted witness: MP's weak outcome under pso.
                    ("test=classic/MP.litmus&model=pso", &["1", "0"][..], 2, "mp"),
                    // Four threads, and the edges of IRIW's readers within a
                    // row, which dot used to let reorder the columns.
                    (
                        "test=classic/IRIW.litmus&model=ax.pso",
                        &["1", "0", "1", "1"][..],
                        4,
                        "iriw",
                    ),
                    // A fork and an RMW under c11r.
                    (
                        "test=seeds/TSAN11-fig4.litmus&model=c11r",
                        &["1"][..],
                        3,
                        "tsan11",
                    ),
                ] {
                    let measured =
                        graph_of(&client, &url, query, row, &format!("{name}-{width}")).await;
                    assert_eq!(
                        measured["problems"],
                        json!([]),
                        "{query} at {width}x{height}: {measured:#}"
                    );
                    assert_eq!(measured["threads"], json!(threads), "{query}: {measured}");
                    assert!(measured["labels"].as_u64().unwrap() >= 4, "{measured}");
                }
            }
            client
        },
    );
}

/// The text of the element `selector`.
async fn text_of(client: &Client, selector: &str) -> String {
    eval(
        client,
        &format!("(document.querySelector('{selector}') || {{}}).textContent || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Opens `query` and waits for the page.
async fn open(client: &Client, url: &str, query: &str) {
    client.goto(&format!("{url}?{query}")).await.unwrap();
    wait_until(client, "document.body.dataset.ready === 'true'", "the page").await;
}

#[test]
fn bad_links_are_named_and_run_nothing() {
    let limits = relaxlab::serve::Limits {
        max_states: 40,
        ..relaxlab::serve::Limits::default()
    };
    in_chromium(limits, |client, url| async move {
        let runs = "document.querySelectorAll('section.run').length";
        for (query, named) in [
            (
                "test=classic/NOPE.litmus&model=tso",
                "test=classic/NOPE.litmus: no test `classic/NOPE.litmus` in the library",
            ),
            (
                "test=classic/SB.litmus&model=ax.bogus",
                "model=ax.bogus: unknown model `ax.bogus`",
            ),
            (
                "test=classic/SB.litmus&model=tso,bogus",
                "model=tso,bogus: unknown model `bogus`",
            ),
            (
                "test=classic/SB.litmus&model=TSO",
                "unknown model `TSO` (did you mean `tso`?)",
            ),
            (
                "test=classic/SB.litmus&model=tso,,pso",
                "model=tso,,pso: an empty model name",
            ),
            (
                "test=classic/SB.litmus&model=tso&mapping=weird",
                "mapping=weird: unknown mapping",
            ),
            (
                "test=classic/SB.litmus&model=tso&unroll=lots",
                "unroll=lots: not a number of unrollings",
            ),
            (
                "test=classic/SB.litmus&modle=tso",
                "unknown parameter `modle` (did you mean `model`?)",
            ),
        ] {
            open(&client, &url, query).await;
            let notice = text_of(&client, "#notice").await;
            assert!(notice.contains(named), "?{query}: {notice:?}");
            assert_eq!(eval(&client, runs).await, json!(0), "?{query} ran");
            let status = text_of(&client, "#run-status").await;
            assert!(!status.contains("empty"), "?{query}: {status}");
        }

        // Nothing selected: Run says so, and runs nothing (it used to run
        // sc in place).
        open(&client, &url, "test=classic/SB.litmus").await;
        untick_models(&client).await;
        click(&client, Locator::Id("run")).await;
        wait_until(
            &client,
            "document.querySelector('#run-status').textContent.includes('choose at least one model')",
            "the no-model status",
        )
        .await;
        assert_eq!(eval(&client, runs).await, json!(0));

        // The header names the library file, `(edited)` once changed, and
        // the test once the text is another test altogether.
        let set = |text: String| {
            format!(
                "const a = document.querySelector('#source'); a.value = {};                  a.dispatchEvent(new Event('input'));",
                serde_json::to_string(&text).unwrap()
            )
        };
        assert_eq!(text_of(&client, "#test-name").await, "classic/SB.litmus");
        let sb = std::fs::read_to_string(support::root().join("litmus/classic/SB.litmus")).unwrap();
        client
            .execute(&set(sb.replace("store(x, 1", "store(x, 2")), vec![])
            .await
            .unwrap();
        assert_eq!(
            text_of(&client, "#test-name").await,
            "classic/SB.litmus (edited)"
        );
        let mp = std::fs::read_to_string(support::root().join("litmus/classic/MP.litmus")).unwrap();
        client.execute(&set(mp), vec![]).await.unwrap();
        assert_eq!(text_of(&client, "#test-name").await, "MP");

        // A partial result names the server's bound, not a flag of `run`.
        open(&client, &url, "test=classic/IRIW.litmus&model=tso").await;
        wait_until(&client, "document.querySelector('.bound')", "the bound").await;
        let bound = text_of(&client, ".bound").await;
        assert!(bound.contains("relaxlab serve --max-states"), "{bound}");
        assert!(!bound.contains("(--max-states)"), "{bound}");
        client
    });
}
