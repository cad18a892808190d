// The relaxlab playground's page: the library, the editor, runs with
// their outcome tables, witnesses and execution graphs, and the stepper.
// Everything it shows comes from the server's JSON API (see
// src/serve/mod.rs); graphs are drawn from DOT by the vendored Viz.js.
'use strict';

const $ = (selector, root = document) => root.querySelector(selector);

/** Creates an element with attributes and children (strings are text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const state = {
  file: null, // the library path of the test in the editor, if any
  fileText: null, // that test's text in the library
  fileTest: null, // the name of that test
  library: new Set(), // the library's paths
  models: [], // every model name the server runs
  session: null, // the stepper's session id
  marks: { error: [], next: [], hover: [] },
  running: false,
};

/** GET (no body) or POST JSON; throws an Error with the server's message. */
async function api(path, body) {
  const init = body === undefined
    ? {}
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text }; }
  if (response.status === 413) {
    throw new Error('the test is larger than the server accepts (relaxlab serve --max-request-bytes)');
  }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// ---------------------------------------------------------------- editor

const KEYWORDS = new Set(['test', 'init', 'thread', 'if', 'else', 'while', 'fork', 'Fork', 'exists',
  'forall', 'observe', 'locations', 'filter', 'expect', 'true', 'false']);
const BUILTINS = new Set(['load', 'store', 'fence', 'cas', 'cas_weak', 'rmw', 'join', 'assert', 'assume', 'exchange',
  'fetch_add', 'fetch_sub', 'fetch_and', 'fetch_or', 'fetch_xor', 'fetch_max', 'fetch_min',
  'Load', 'Store', 'RMW', 'Fence', 'Join', 'CAS']);
const ORDERS = new Set(['rlx', 'acq', 'rel', 'acq_rel', 'sc', 'na', 'ss', 'll', 'sl', 'ls', 'full',
  'never', 'sometimes', 'always']);
const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?)|(\b\d+\b)|([A-Za-z_][A-Za-z0-9_.]*)/g;
// Past this size the editor only marks spans: colouring every token of a
// huge paste would make typing slow.
const HIGHLIGHT_LIMIT = 60000;

function tokens(text) {
  const out = [];
  if (text.length > HIGHLIGHT_LIMIT) return out;
  for (const m of text.matchAll(TOKEN)) {
    let cls = null;
    if (m[1]) cls = 'tok-comment';
    else if (m[2]) cls = 'tok-string';
    else if (m[3]) cls = 'tok-number';
    else if (KEYWORDS.has(m[4])) cls = 'tok-keyword';
    else if (BUILTINS.has(m[4])) cls = 'tok-builtin';
    else if (ORDERS.has(m[4])) cls = 'tok-order';
    if (cls) out.push({ start: m.index, end: m.index + m[0].length, cls });
  }
  return out;
}

/** Redraws the highlighted copy of the editor's text with its marks. */
function highlight() {
  const text = $('#source').value;
  const ranges = tokens(text);
  for (const [kind, list] of Object.entries(state.marks)) {
    for (const m of list) {
      const start = Math.max(0, Math.min(m.start, text.length));
      let end = Math.min(m.end, text.length);
      // An empty span (an error at the end of the text) still shows, as
      // one character (a space past the end).
      if (end <= start) end = start + 1;
      ranges.push({ start, end, cls: `mark-${kind}`, title: m.title });
    }
  }
  const length = Math.max(text.length, ...ranges.map((r) => r.end));
  const cuts = new Set([0, length]);
  for (const r of ranges) { cuts.add(r.start); cuts.add(r.end); }
  const points = [...cuts].sort((a, b) => a - b);
  const code = $('#highlight');
  code.textContent = '';
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const covering = ranges.filter((r) => r.start <= a && r.end >= b && r.end > r.start);
    const piece = text.slice(a, b) || ' ';
    if (covering.length === 0) { code.append(piece); continue; }
    const title = covering.map((r) => r.title).filter(Boolean).join('\n');
    code.append(el('span', { class: covering.map((r) => r.cls).join(' '), title: title || null }, piece));
  }
  // A trailing newline needs a character after it to take up a line.
  code.append('\n');
  syncScroll();
}

function syncScroll() {
  const area = $('#source');
  const pre = $('#editor pre');
  pre.scrollTop = area.scrollTop;
  pre.scrollLeft = area.scrollLeft;
}

let highlightPending = false;
function scheduleHighlight() {
  if (highlightPending) return;
  highlightPending = true;
  requestAnimationFrame(() => { highlightPending = false; highlight(); });
}

function setMarks(kind, list) {
  state.marks[kind] = list;
  scheduleHighlight();
}

function select(start, end) {
  const area = $('#source');
  area.focus();
  area.setSelectionRange(start, end);
  // Scroll the selection into view: place the caret line near the middle.
  const line = area.value.slice(0, start).split('\n').length - 1;
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 19;
  area.scrollTop = Math.max(0, line * lineHeight - area.clientHeight / 2);
  syncScroll();
}

/** The name of the test in `text` (`test NAME`, or a herd7 header). */
function testName(text) {
  return (text.match(/^\s*(?:test|C|X86|X86_64)\s+(\S+)/m) || [])[1] || null;
}

function setSource(text, file) {
  $('#source').value = text;
  state.file = file;
  state.fileText = file ? text : null;
  state.fileTest = file ? testName(text) : null;
  setMarks('error', []);
  setMarks('next', []);
  $('#diagnostics').textContent = '';
  $('#results').textContent = '';
  $('#run-status').textContent = '';
  resetStepper();
  showTestName();
}

/** The header names the library file the editor holds, `(edited)` once
 * changed; a text that is another test altogether (its name changed) is
 * no longer that file, and the header names the test. */
function showTestName() {
  const text = $('#source').value;
  const name = testName(text);
  if (state.file && text !== state.fileText && name !== state.fileTest) {
    state.file = null;
    state.fileText = null;
    state.fileTest = null;
    updateUrl();
  }
  let shown = name || '';
  if (state.file) shown = text === state.fileText ? state.file : `${state.file} (edited)`;
  $('#test-name').textContent = shown;
  for (const a of document.querySelectorAll('.library a')) {
    a.classList.toggle('current', a.dataset.path === state.file);
  }
}

// ----------------------------------------------------------- diagnostics

function renderDiagnostics(container, diagnostics) {
  container.textContent = '';
  const marks = [];
  for (const d of diagnostics) {
    const labels = d.labels.filter((l) => l.start !== null && l.start !== undefined);
    for (const l of labels) marks.push({ start: l.start, end: l.end, title: l.label || d.message });
    container.append(el('div', { class: 'diagnostic' },
      el('div', { class: 'message' }, d.message),
      labels.map((l) => el('div', {},
        el('span', { class: 'where', onclick: () => select(l.start, Math.max(l.end, l.start + 1)) },
          `line ${l.line}, column ${l.column}`),
        l.label ? `: ${l.label}` : '')),
      d.help ? el('div', { class: 'help' }, `help: ${d.help}`) : null,
      el('details', {}, el('summary', {}, 'as the command line prints it'), el('pre', {}, d.rendered))));
  }
  return marks;
}

function showDiagnostics(diagnostics) {
  setMarks('error', renderDiagnostics($('#diagnostics'), diagnostics));
}

// ----------------------------------------------------------------- library

async function loadLibrary() {
  const entries = await api('/api/library');
  state.library = new Set(entries.map((e) => e.path));
  const byDir = new Map();
  for (const e of entries) {
    const dir = e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : '.';
    if (!byDir.has(dir)) byDir.set(dir, []);
    byDir.get(dir).push(e);
  }
  const root = $('#library');
  root.textContent = '';
  for (const [dir, list] of byDir) {
    root.append(el('details', { open: dir === 'classic' },
      el('summary', {}, `${dir} (${list.length})`),
      list.map((e) => el('a', {
        href: `?test=${encodeURIComponent(e.path)}`,
        class: 'test',
        title: e.doc || e.name || e.path,
        dataset: { path: e.path, search: `${e.path} ${e.name || ''} ${e.doc || ''}`.toLowerCase() },
        onclick: (ev) => { ev.preventDefault(); openTest(e.path); },
      }, e.path.slice(e.path.lastIndexOf('/') + 1).replace(/\.litmus$/, '')))));
  }
}

function filterLibrary() {
  const words = $('#library-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const details of document.querySelectorAll('.library details')) {
    let shown = 0;
    for (const a of details.querySelectorAll('a')) {
      const hit = words.every((w) => a.dataset.search.includes(w));
      a.hidden = !hit;
      if (hit) shown++;
    }
    details.hidden = shown === 0;
    if (words.length) details.open = shown > 0;
  }
}

/** Loads the library's test at `path`; false (and a notice) if there is
 * none. */
async function openTest(path) {
  const response = await fetch(`/api/library/${path.split('/').map(encodeURIComponent).join('/')}`);
  if (!response.ok) {
    showNotice([`no test \`${path}\` in the library`]);
    return false;
  }
  showNotice([]);
  setSource(await response.text(), path);
  updateUrl();
  return true;
}

/** Shows `problems` above the editor (none: hides the notice). */
function showNotice(problems, title = 'This link cannot be followed as it is:') {
  const box = $('#notice');
  box.textContent = '';
  box.hidden = problems.length === 0;
  if (problems.length) box.append(el('div', { class: 'message' }, title), el('ul', {}, problems.map((p) => el('li', {}, p))));
}

// ------------------------------------------------------------ link check

const LINK_KEYS = ['test', 'model', 'mapping', 'unroll'];

/** The edit distance of two short strings, a swap of two neighbours
 * counting as one edit. */
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** ` (did you mean `x`?)` for the closest of `known`, if close. */
function suggestion(name, known) {
  const lower = name.toLowerCase();
  let best = null;
  for (const k of known) {
    const d = k.toLowerCase() === lower ? 0 : distance(lower, k.toLowerCase());
    if (d <= Math.max(1, Math.floor(k.length / 3)) && (!best || d < best.d)) best = { k, d };
  }
  return best ? ` (did you mean \`${best.k}\`?)` : '';
}

/** Every parameter of the page's address that it cannot use, named with
 * its value and why. */
function linkProblems(params) {
  const problems = [];
  for (const key of new Set(params.keys())) {
    if (!LINK_KEYS.includes(key)) {
      problems.push(`unknown parameter \`${key}\`${suggestion(key, LINK_KEYS)}: a link takes test, model, mapping and unroll`);
    }
  }
  const test = params.get('test');
  if (test !== null && !state.library.has(test)) {
    const known = [...state.library];
    problems.push(`test=${test}: no test \`${test}\` in the library${suggestion(test, known)}`);
  }
  const model = params.get('model');
  if (model !== null) {
    for (const name of model.split(',')) {
      if (name === '') problems.push(`model=${model}: an empty model name (names are separated by single commas)`);
      else if (!state.models.includes(name)) {
        problems.push(`model=${model}: unknown model \`${name}\`${suggestion(name, state.models)}; the models are ${state.models.join(', ')}`);
      }
    }
  }
  const mapping = params.get('mapping');
  const mappings = [...document.querySelectorAll('#opt-mapping option')].map((o) => o.value);
  if (mapping !== null && !mappings.includes(mapping)) {
    problems.push(`mapping=${mapping}: unknown mapping${suggestion(mapping, mappings)}; the mappings are ${mappings.join(' and ')}`);
  }
  const unroll = params.get('unroll');
  if (unroll !== null && !(/^\d+$/.test(unroll) && Number(unroll) <= 64)) {
    problems.push(`unroll=${unroll}: not a number of unrollings, which is a whole number from 0 to 64`);
  }
  return problems;
}

function updateUrl() {
  const params = new URLSearchParams();
  if (state.file) params.set('test', state.file);
  const models = selectedModels();
  if (models.length) params.set('model', models.join(','));
  history.replaceState(null, '', `?${params}`);
}

// ------------------------------------------------------------------ models

async function loadModels() {
  const models = await api('/api/models');
  state.models = [...models.operational, ...models.axiomatic, ...models.cat];
  const box = (name) => el('label', {}, el('input', { type: 'checkbox', name: 'model', value: name, onchange: updateUrl }), ` ${name}`);
  $('#op-models').append(...models.operational.map(box));
  $('#ax-models').append(...models.axiomatic.map(box));
  $('#cat-models').append(...models.cat.map(box));
  $('#step-model').append(...models.operational.map((m) => el('option', { value: m }, m)));
}

function selectedModels() {
  return [...document.querySelectorAll('input[name=model]:checked')].map((i) => i.value);
}

function selectModels(names) {
  for (const input of document.querySelectorAll('input[name=model]')) {
    input.checked = names.includes(input.value);
  }
  const op = names.find((n) => !n.startsWith('ax.') && !n.startsWith('cat:'));
  if (op) $('#step-model').value = op;
}

// -------------------------------------------------------------------- runs

function requestOptions() {
  const unroll = $('#opt-unroll').value;
  return {
    mapping: $('#opt-mapping').value,
    ...(unroll === '' ? {} : { unroll: Number(unroll) }),
  };
}

async function run() {
  if (state.running) return;
  const models = selectedModels();
  if (models.length === 0) {
    $('#run-status').textContent = 'choose at least one model to run';
    return;
  }
  state.running = true;
  $('#run').disabled = true;
  $('#run-status').textContent = 'running…';
  const started = performance.now();
  try {
    const answer = await api('/api/run', {
      source: $('#source').value,
      ...(state.file ? { file: state.file } : {}),
      models,
      witness: $('#opt-witness').checked,
      dot: $('#opt-graphs').checked,
      ...requestOptions(),
    });
    showDiagnostics(answer.diagnostics);
    renderRuns(answer);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    $('#run-status').textContent = `${answer.runs.length} run${answer.runs.length === 1 ? '' : 's'} in ${seconds} s`
      + (answer.exit === 3 ? ' (partial: a bound cut a result short)' : '')
      + (answer.diagnostics.length ? ` — ${answer.diagnostics.length} diagnostic${answer.diagnostics.length === 1 ? '' : 's'}` : '');
  } catch (e) {
    $('#results').textContent = '';
    $('#run-status').textContent = `error: ${e.message}`;
  } finally {
    state.running = false;
    $('#run').disabled = false;
  }
}

function renderRuns(answer) {
  const results = $('#results');
  results.textContent = '';
  answer.runs.forEach((r, i) => results.append(renderRun(r, answer.dot ? answer.dot[i] : null)));
}

function renderRun(r, dots) {
  const sampled = r.mode === 'sampled';
  const counted = r.mode !== 'exhaustive';
  const countName = r.mode === 'axiomatic' ? 'executions' : 'runs';
  const rows = el('tbody');
  r.rows.forEach((row, j) => {
    const notes = [row.non_sc ? 'non-SC' : null, row.racy ? 'racy' : null].filter(Boolean).join(' ');
    // The star marks the rows that decide the condition: witnesses of
    // `exists`, counterexamples of `~exists` and `forall`.
    const decides = r.reading ? r.reading.decides[j] : row.satisfies;
    const tr = el('tr', { class: `row${decides ? ' satisfies' : ''}`, dataset: { index: j } },
      el('td', {}, decides ? '*' : ''),
      row.values.map((v) => el('td', {}, v)),
      counted ? el('td', {}, row.count) : null,
      el('td', { class: 'notes' }, notes));
    tr.addEventListener('click', () => toggleDetail(tr, r, row, dots ? dots[j] : null, { outcome: row.values }));
    rows.append(tr);
  });
  const operational = !r.model.startsWith('ax.') && !r.model.startsWith('cat:');
  return el('section', { class: 'run', dataset: { model: r.model } },
    el('h4', {}, `${r.test} under ${r.model} (${r.mode}${sampled ? `, ${r.runs} runs, seed ${r.seed}` : ''}): `,
      el('span', { class: `verdict-${r.verdict}` }, r.verdict || 'no condition')),
    r.condition ? el('div', { class: 'condition' }, r.condition
      + (r.reading && r.reading.quantifier !== 'exists' ? `: ${r.reading.result}` : '')) : null,
    r.bounds.map((b) => el('div', { class: 'bound' }, `partial: ${b.message}`)),
    el('table', { class: 'outcomes' },
      el('thead', {}, el('tr', {}, el('th', {}), r.columns.map((c) => el('th', {}, c)),
        counted ? el('th', {}, countName) : null, el('th', { class: 'notes' }, 'notes'))),
      rows),
    el('div', { class: 'details' }),
    r.failures.length ? el('div', {}, el('strong', {}, 'failures'), el('ul', {}, r.failures.map((f, k) => {
      const li = el('li', {}, `${f.what}${counted ? ` (${f.count})` : ''} `);
      if (f.witness) li.append(el('pre', { class: 'witness' }, f.witness.join('\n')));
      if (operational) {
        li.append(el('button', { onclick: () => startStepper(r.model, { failure: k }) }, 'step through this failure'));
      }
      return li;
    }))) : null,
    r.races.length ? el('div', { class: 'races' }, r.races.map((x) => el('div', {}, `data race on ${x.location}: ${x.earlier} and ${x.later}`))) : null,
    el('div', { class: 'summary' },
      `${r.rows.length} outcome${r.rows.length === 1 ? '' : 's'}`
      + (r.mode === 'exhaustive' ? `; ${r.stats.states} states, ${r.stats.transitions} transitions` : '')
      + (operational ? ' — click a row for its witness and graph' : ' — click a row for its execution graph')));
}

/** Shows (or hides, on a second click) the witness and graph of a row
 * under the run's table. */
function toggleDetail(tr, r, row, dot, follow) {
  const section = tr.closest('section.run');
  const box = $('.details', section);
  const wasOpen = tr.classList.contains('open');
  for (const other of section.querySelectorAll('tr.row.open')) other.classList.remove('open');
  box.textContent = '';
  if (wasOpen) return;
  tr.classList.add('open');
  const operational = !r.model.startsWith('ax.') && !r.model.startsWith('cat:');
  const values = r.columns.map((c, i) => `${c}=${row.values[i]}`).join(' ');
  box.append(el('div', { class: 'detail-title' }, `outcome ${values}`));
  if (row.witness) box.append(el('pre', { class: 'witness' }, row.witness.join('\n')));
  if (operational && row.witness) {
    box.append(el('button', { class: 'follow', onclick: () => startStepper(r.model, follow) }, 'step through this witness'));
  }
  if (dot) {
    const graph = el('div', { class: 'graph' });
    box.append(graph);
    drawGraph(graph, dot);
  } else if (!row.witness) {
    box.append(el('div', { class: 'muted' }, 'no witness: run with witnesses or graphs on'));
  }
}

let vizInstance = null;
async function drawGraph(container, dot) {
  const comments = dot.split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(2).trim());
  if (comments.length) container.append(el('div', { class: 'graph-note' }, comments.join('\n')));
  if (!dot.includes('digraph')) return;
  try {
    if (!vizInstance) vizInstance = await Viz.instance();
    const svg = vizInstance.renderSVGElement(dot);
    container.append(svg);
    // A graph wider than its pane shrinks, but to no less than three
    // quarters of its size (its labels stay readable), and scrolls beyond.
    const natural = svg.width.baseVal.value;
    const room = container.clientWidth;
    if (natural > room) svg.style.width = `${Math.max(room, natural * 0.75)}px`;
  } catch (e) {
    container.append(el('pre', { class: 'graph-note' }, `cannot draw the graph: ${e.message}\n${dot}`));
  }
}

// ---------------------------------------------------------------- stepper

function resetStepper() {
  state.session = null;
  $('#stepper').hidden = true;
  $('#step-status').textContent = '';
  $('#step-diagnostics').textContent = '';
  for (const b of ['#step-back', '#step-forward', '#step-restart']) $(b).disabled = true;
  setMarks('next', []);
  setMarks('hover', []);
}

async function startStepper(model, follow) {
  if (model) $('#step-model').value = model;
  resetStepper();
  $('#step-status').textContent = follow ? 'exploring to find the witness…' : 'starting…';
  try {
    const answer = await api('/api/step/start', {
      source: $('#source').value,
      ...(state.file ? { file: state.file } : {}),
      model: $('#step-model').value,
      mapping: $('#opt-mapping').value,
      ...(follow ? { follow } : {}),
    });
    if (answer.diagnostics.length) {
      $('#step-status').textContent = 'the test does not load under this model';
      setMarks('error', renderDiagnostics($('#step-diagnostics'), answer.diagnostics));
      return;
    }
    state.session = answer.session;
    renderStep(answer.view, follow);
    $('#stepper-pane').scrollIntoView({ block: 'start', behavior: 'smooth' });
  } catch (e) {
    $('#step-status').textContent = `error: ${e.message}`;
  }
}

async function step(action, choice) {
  if (!state.session) return;
  try {
    const answer = await api(`/api/step/${action}`, {
      session: state.session, ...(choice === undefined ? {} : { choice }),
    });
    renderStep(answer.view);
  } catch (e) {
    $('#step-status').textContent = `error: ${e.message}`;
  }
}

function renderGroups(groups) {
  return groups.map((g) => el('div', { class: 'group' },
    el('span', { class: 'title' }, g.title),
    g.hint ? el('span', { class: 'hint' }, `(${g.hint})`) : null,
    el('div', { class: 'cells' }, g.cells.length
      ? g.cells.map((c) => el('span', { class: 'cell' }, c.text, c.note ? el('small', {}, c.note) : null))
      : el('span', { class: 'empty' }, 'empty'))));
}

function renderStep(view, follow) {
  $('#stepper').hidden = false;
  const status = $('#step-status');
  status.dataset.kind = view.status.kind;
  const where = view.length ? ` — move ${view.position} of ${view.length}` : '';
  status.textContent = `${view.test}: ${view.status.text}${where}`;
  if (follow && view.length) status.textContent += ' (following a witness: Forward replays it, or click the highlighted transition)';
  $('#step-back').disabled = view.position === 0;
  $('#step-restart').disabled = view.position === 0;
  $('#step-forward').disabled = view.position >= view.length;

  const moves = $('#moves');
  moves.textContent = '';
  if (view.moves.length === 0) moves.append(el('div', { class: 'muted' }, 'none'));
  for (const m of view.moves) {
    const b = el('button', {
      class: `move${m.internal ? ' internal' : ''}${m.next_in_history ? ' next-in-history' : ''}`,
      dataset: { choice: m.choice },
      title: m.next_in_history ? 'the next transition of the history' : null,
      onclick: () => step('take', m.choice),
      onmouseenter: () => setMarks('hover', m.instr && m.instr.span ? [{ start: m.instr.span[0], end: m.instr.span[1] }] : []),
      onmouseleave: () => setMarks('hover', []),
    }, el('span', { class: 'label' }, m.lines[0]),
    m.lines.slice(1).map((l) => el('span', { class: 'then' }, `then ${l}`)),
    m.ends ? el('span', { class: 'ends' }, m.ends) : null);
    moves.append(b);
  }

  const threads = $('#threads');
  threads.textContent = '';
  const nextMarks = [];
  for (const t of view.threads) {
    if (t.next && t.next.span) nextMarks.push({ start: t.next.span[0], end: t.next.span[1], title: `${t.name} executes this next` });
    threads.append(el('div', { class: 'thread', dataset: { thread: t.name } },
      el('h4', {}, t.name, el('span', { class: 'state' }, t.state)),
      t.next ? el('div', {}, 'next: ', el('span', { class: 'next' }, t.next.text), ` (line ${t.next.line})`) : null,
      t.registers.length ? el('div', { class: 'registers' }, t.registers.map((r) => `${r.name} = ${r.value}`).join('   ')) : null,
      renderGroups(t.groups)));
  }
  setMarks('next', nextMarks);
  setMarks('hover', []);

  const shared = $('#shared');
  shared.textContent = '';
  shared.append(...renderGroups(view.shared));
  $('#races').textContent = view.races.join('\n');

  const historyList = $('#history');
  historyList.textContent = '';
  if (view.initial.length) {
    historyList.append(el('li', { class: 'local', value: 0 }, `before any move: ${view.initial.join('; ')}`));
  }
  view.history.forEach((lines, i) => {
    const cls = i < view.position ? (i === view.position - 1 ? 'current' : '') : 'undone';
    historyList.append(el('li', { class: cls, value: i + 1 }, lines[0],
      lines.slice(1).map((l) => el('div', { class: 'local' }, l))));
  });
}

// ------------------------------------------------------------------ start

async function main() {
  const area = $('#source');
  area.addEventListener('input', () => {
    // Edits invalidate the marks of the last answer.
    state.marks.error = [];
    state.marks.next = [];
    showTestName();
    scheduleHighlight();
  });
  area.addEventListener('scroll', syncScroll);
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
    if (e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      const { selectionStart: s, selectionEnd: t } = area;
      area.setRangeText('  ', s, t, 'end');
      scheduleHighlight();
    }
  });
  $('#run').addEventListener('click', run);
  $('#library-filter').addEventListener('input', filterLibrary);
  $('#step-start').addEventListener('click', () => startStepper());
  $('#step-back').addEventListener('click', () => step('back'));
  $('#step-forward').addEventListener('click', () => step('forward'));
  $('#step-restart').addEventListener('click', () => step('restart'));

  await Promise.all([loadLibrary(), loadModels()]);
  const params = new URLSearchParams(location.search);
  // A link that names something the page does not have says so, naming
  // each parameter, and runs nothing: never another test or model than
  // the one asked for.
  const problems = linkProblems(params);
  const test = params.get('test') || 'classic/SB.litmus';
  if (state.library.has(test)) await openTest(test);
  const mappings = [...document.querySelectorAll('#opt-mapping option')].map((o) => o.value);
  if (mappings.includes(params.get('mapping'))) $('#opt-mapping').value = params.get('mapping');
  const unroll = params.get('unroll');
  if (unroll !== null && /^\d+$/.test(unroll) && Number(unroll) <= 64) $('#opt-unroll').value = unroll;
  const models = (params.get('model') || '').split(',').filter((m) => state.models.includes(m));
  selectModels(models.length ? models : ['sc', 'tso']);
  if (problems.length) {
    showNotice(problems);
  } else if (params.get('model')) {
    updateUrl();
    await run();
  }
  document.body.dataset.ready = 'true';
}

main();
