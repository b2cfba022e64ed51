// nimbot in the browser: the explorer, a board to play on, and a game's value
// history. Every answer comes from the Rust the command line runs, compiled to
// WebAssembly (nimbot.wasm, web/src/lib.rs): the rules (the position after a
// move or after the moves of a link), the values and distances of moves in
// `nimbot moves`' order, the best line, nimbot's moves and its policies, game
// records, and the analysis of a record or game log with its chart. This file
// only asks, draws and wires the page's events. No library, nothing fetched but
// nimbot.wasm and distances.bin (both preloaded by index.html) from the same place.
'use strict';

const UNKNOWN = 0xffffffff;
const REFUSALS = {
  '-1': 'not a position', '-2': 'too many stones for this page',
  '-3': 'the take is outside 1..=limit', '-4': 'no resets left',
  '-5': 'the engine could not answer', '-6': 'unknown policy',
};
const INVALID = -8; // the module says why, in its text answer
let W = null; // the module's exports
const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// ---- the module's exports: numbers and text in, numbers and text out ---------------

// The module's last text answer.
function answerText() {
  return decoder.decode(new Uint8Array(W.memory.buffer, W.nb_text(), W.nb_text_len()));
}

function refused(code) {
  return new Error(code === INVALID ? answerText() : REFUSALS[String(code)] || `error ${code}`);
}

// `r`, the export's answer, unless it is a refusal.
function ok(r) {
  if (r < 0) throw refused(r);
  return r;
}

// Hand `text` to the module (the next export reads it).
function put(text) {
  const bytes = encoder.encode(text);
  const at = W.nb_input(bytes.length);
  if (at === 0 && bytes.length > 0) throw new Error('the module has no memory for the input');
  new Uint8Array(W.memory.buffer, at, bytes.length).set(bytes);
}

function words(n) {
  return new Uint32Array(W.memory.buffer, W.nb_out(), n);
}

function args(p) {
  return [p.s, p.c, p.a, p.b, p.f, p.m];
}

const dist = (d) => (d === UNKNOWN ? null : d);
const move = (w, o) => ({ take: w[o], reset: w[o + 1] === 1, value: w[o + 2] ? 'win' : 'lose', distance: dist(w[o + 3]) });

// Every move of `p` with its value and distance, in `nimbot moves`' order.
// Without `distances`, a position in the table gets values alone, at once.
function probe(p, distances = true) {
  const count = ok(W.nb_moves(...args(p), distances ? 1 : 0));
  const w = words(2 + 4 * count);
  const notation = count ? answerText().split(' ') : [];
  const moves = [];
  for (let i = 0; i < count; i++) moves.push({ ...move(w, 2 + 4 * i), notation: notation[i] });
  return { value: w[0] ? 'win' : 'lose', distance: dist(w[1]), moves };
}

// The opponent's position after `mv`, or null if it empties the pile.
function after(p, mv) {
  if (ok(W.nb_after(...args(p), mv.take, mv.reset ? 1 : 0)) === 0) return null;
  const w = words(5);
  return { s: w[0], c: w[1], a: w[2], b: w[3], f: w[4], m: p.m };
}

// nimbot's move at `p` under the policy called `policy`.
function decide(p, policy) {
  put(policy);
  ok(W.nb_decide(...args(p)));
  const w = words(3);
  return { take: w[0], reset: w[1] === 1 };
}

// The best-play line from `p` to the end as `nimbot line --json` prints it, and
// its plies' notation.
function lineJson(p) {
  ok(W.nb_line_json(...args(p)));
  const [json, notation] = answerText().split('\n');
  return { json: json + '\n', notation: notation ? notation.split(' ') : [] };
}

// The best-play line from `p` to the end (`nimbot line`).
function bestLine(p) {
  const count = ok(W.nb_line(...args(p)));
  const w = words(4 * count);
  const line = [];
  for (let i = 0; i < count; i++) line.push(move(w, 4 * i));
  return line;
}

function limit(p) {
  return ok(W.nb_limit(...args(p)));
}

// The game of N, R, M after `moves` (the notation: "3 2 2r"): the position in
// front of the player to move and that player (0 first), or the winner.
function replay(n, r, m, moves) {
  put(moves);
  const going = ok(W.nb_replay(n, r, m));
  const w = words(6);
  return going ? { pos: { s: w[0], c: w[1], a: w[2], b: w[3], f: w[4], m }, mover: w[5] }
    : { pos: null, winner: w[0] };
}

// A game record, as `--record` writes it, of `request` (the game and its moves).
function record(request) {
  put(JSON.stringify(request));
  ok(W.nb_record());
  return answerText();
}

// `nimbot analyze --json` of a record or game log, and its chart (SVG).
function analysis(text, r, m) {
  put(text);
  ok(W.nb_analyze(r, m));
  const lines = answerText().trim().split('\n').map((l) => JSON.parse(l));
  ok(W.nb_analysis_moves());
  const notation = answerText().split('\n').map((l) => l.split('\t'));
  ok(W.nb_chart());
  return { plies: lines.slice(0, -1), summary: lines[lines.length - 1], svg: answerText(), notation };
}

// The policies nimbot plays here: [{name, summary, default}].
function policies() {
  ok(W.nb_policies());
  return answerText().trim().split('\n').map((l) => {
    const [name, summary, mark] = l.split('\t');
    return { name, summary, default: mark === 'default' };
  });
}

// Fibonacci Nim: the game of `n` stones after `takes` ("3 2") and every take
// with its value; nimbot's take there.
function fibExplore(n, takes) {
  put(takes);
  ok(W.nb_fib(n));
  return JSON.parse(answerText());
}

function fibDecide(n, takes) {
  put(takes);
  ok(W.nb_fib_decide(n));
  return String(words(1)[0]);
}

// Super-Nim: the game from `heaps` ("2 4 5") with `cap` plies after `moves`
// ("s2 m1-5") and every move, with its exact value if `values`; nimbot's move.
function snExplore(heaps, cap, moves, values) {
  put(`${heaps}|${moves}`);
  ok(W.nb_sn(cap, values ? 1 : 0));
  return JSON.parse(answerText());
}

function snDecide(heaps, cap, moves) {
  put(`${heaps}|${moves}`);
  ok(W.nb_sn_decide(cap));
  return answerText();
}

function posText(p) {
  return `${p.s} ${p.c} ${p.a} ${p.b} ${p.f}`;
}

function describe(p) {
  return `${p.s} stones, cap ${p.c}, limit ${limit(p)}, resets ${p.a} (mover) and ${p.b}` +
    (p.f ? ', a reset pending' : '');
}

function plies(d) {
  return d === null ? '-' : `${d} ${d === 1 ? 'ply' : 'plies'}`;
}

function download(a, text) {
  if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

// ---- Explorer -----------------------------------------------------------------

function hashParams(hash) {
  const h = hash.slice(1);
  const q = h.indexOf('?');
  return { view: (q < 0 ? h : h.slice(0, q)) || 'explore', params: new URLSearchParams(q < 0 ? '' : h.slice(q + 1)) };
}

function exploreLink(q) {
  return '#explore?' + new URLSearchParams(q).toString();
}

let explored = 0; // the explorer's renders, to drop a stale best line
let pending = null; // the explorer's distances and best line, still to come
let distancesLoaded = null; // settles once the table's distances are in the module

// Run the explorer's pending work now (the tests; otherwise it runs right after
// the values are on screen).
function settle() {
  const job = pending;
  pending = null;
  if (job) job();
}

function explore(params) {
  const gen = ++explored;
  pending = null;
  const game = params.get('game') || 'expanding';
  $('ex-game').value = game;
  $('ex-expanding').hidden = game !== 'expanding';
  $('ex-other').hidden = game === 'expanding';
  if (game !== 'expanding') {
    exploreOther(game, params);
    return;
  }
  const f = $('ex-form');
  const n = Number(params.get('n') || 20);
  const r = Number(params.get('r') || 4);
  const m = Number(params.get('m') || 3);
  const movesText = params.get('moves') || '';
  const posParam = params.get('pos');
  f.n.value = n; f.r.value = r; f.m.value = m;
  f.moves.value = movesText.split('.').join(' ');
  f.pos.value = posParam ? posParam.split('.').join(' ') : '';
  const status = $('ex-status');
  const body = $('ex-moves').tBodies[0];
  const movesList = movesText.split('.').filter((w) => w);
  body.innerHTML = '';
  $('ex-line').innerHTML = '';
  $('ex-line-count').textContent = '';
  $('ex-download').removeAttribute('href');
  $('ex-permalink').href = posParam ? exploreLink({ m, pos: posParam }) : exploreLink({ n, r, m, moves: movesText });
  status.className = 'status';
  // Before the module is in (the page's first frame): the view without answers.
  if (!W) return;
  let p;
  let byMoves = false;
  let who = '';
  const failed = (err) => {
    status.className = 'status error';
    status.textContent = err.message;
    body.innerHTML = '';
  };
  // The position's value and its moves' (distances once known).
  const draw = (e) => {
    status.innerHTML = `${esc(describe(p))}${who}: <span class="${e.value}" id="ex-value" data-value="${e.value}" data-distance="${e.distance ?? ''}">${e.value} in ${plies(e.distance)}</span>`;
    const link = (mv) => {
      if (byMoves) return exploreLink({ n, r, m, moves: movesList.concat([mv.notation]).join('.') });
      const next = after(p, mv);
      return next ? exploreLink({ m, pos: posText(next).split(' ').join('.') }) : null;
    };
    body.innerHTML = e.moves.map((mv) => {
      const next = after(p, mv);
      const href = link(mv);
      const where = next ? `<a href="${href}">${esc(posText(next))}</a>` : 'the pile is empty: the mover wins';
      return `<tr data-take="${mv.take}" data-reset="${mv.reset ? 1 : 0}" data-value="${mv.value}" data-distance="${mv.distance ?? ''}">` +
        `<td>${href ? `<a href="${href}">${mv.notation}</a>` : mv.notation}</td><td class="l ${mv.value}">${mv.value}</td>` +
        `<td>${mv.distance ?? '…'}</td><td class="l">${where}</td></tr>`;
    }).join('');
    // The board after the values are painted (the first answer comes first).
    afterPaint(() => { if (gen === explored) exploreBoard(p, e, link); });
  };
  // The best line, downloadable as a record.
  const line = (e) => {
    if (e.distance === null) return;
    const best = bestLine(p);
    const { json, notation } = lineJson(p);
    // A compact strip: each ply's move, coloured by its mover's value, with the
    // plies to the end in its title.
    $('ex-line-count').textContent = `${best.length} ${best.length === 1 ? 'ply' : 'plies'}`;
    $('ex-line').innerHTML = best.map((mv, i) =>
      `<li class="${mv.value}" title="ply ${i + 1}: ${notation[i]}, ${mv.value} in ${plies(mv.distance)}">${notation[i]}</li>`).join('');
    let text;
    if (byMoves) {
      text = record({
        command: 'web-line', stones: n, resets: r, init_max: m, names: ['first', 'second'], seat: null,
        policy: null, moves: movesList.concat(notation).join(' '), reason: 'best play to the end',
        started_unix: Date.now() / 1000,
      });
    } else {
      text = json;
    }
    download($('ex-download'), text);
  };
  try {
    if (posParam) {
      const x = posParam.split('.').map(Number);
      if (x.length !== 5 || x.some((v) => !Number.isInteger(v) || v < 0)) throw new Error('a position is five numbers S C A B F');
      p = { s: x[0], c: x[1], a: x[2], b: x[3], f: x[4], m };
    } else {
      byMoves = true;
      const g = replay(n, r, m, movesList.join(' '));
      if (!g.pos) throw new Error('the game is over: the last move took the last stone');
      p = g.pos;
      who = ` (the ${g.mover ? 'second' : 'first'} player to move)`;
    }
    // Values first (at once from the table), then distances and the best line.
    const quick = probe(p, false);
    draw(quick);
    if (!window.nimbotFirstAnswer) {
      window.nimbotFirstAnswer = performance.now();
      // (For the benchmark: the end of the frame that shows it.)
      requestAnimationFrame(() => setTimeout(() => { window.nimbotFirstPaint = performance.now(); }, 0));
    }
    pending = () => {
      if (gen !== explored) return;
      try {
        const complete = quick.distance !== null && quick.moves.every((mv) => mv.distance !== null);
        const full = complete ? quick : probe(p, true);
        if (full !== quick) draw(full);
        window.nimbotFirstDistances = window.nimbotFirstDistances || performance.now();
        line(full);
      } catch (err) {
        failed(err);
      }
    };
    // Once the values are on screen and the distances are in.
    distancesLoaded.then(() => afterPaint(settle));
  } catch (err) {
    failed(err);
  }
}

// The explorer's position drawn, each stone the mover may take coloured by the
// take's value (without a reset); a click (or the arrow keys and Enter) walks in.
function exploreBoard(p, e, link) {
  // The position drawn, each stone the mover may take coloured by the take's
  // value (without a reset); a click walks in.
  const plain = e.moves.filter((x) => !x.reset);
  const hints = Object.assign((k) => plain.find((x) => x.take === k), { all: plain });
  const head = (w) => [centerText(w, 16, `${p.s} stones`, 15),
    centerText(w, 34, `limit ${limit(p)} · resets: mover ${p.a}, other ${p.b}${p.f ? ' · a reset pending' : ''}`, 12)];
  const walk = (k) => {
    const mv = plain.find((x) => x.take === k);
    const href = mv && link(mv);
    if (href) location.hash = href;
  };
  const legal = Math.min(limit(p), p.s);
  const board = pileSvg({ stones: p.s, legal, head, label: `${describe(p)}; take 1 to ${legal}`, hints, pick: walk, selected: 0 });
  board.dataset.stones = p.s;
  let k = 0;
  board.addEventListener('keydown', (ev) => {
    if (['ArrowRight', 'ArrowDown'].includes(ev.key)) k = Math.min(legal, k + 1);
    else if (['ArrowLeft', 'ArrowUp'].includes(ev.key)) k = Math.max(1, k - 1);
    else if ((ev.key === 'Enter' || ev.key === ' ') && k > 0) { ev.preventDefault(); walk(k); return; } else return;
    ev.preventDefault();
    for (const c of board.querySelectorAll('.stone.sel')) c.classList.remove('sel');
    const c = board.querySelector(`.stone[data-k="${k}"]`);
    if (c) c.classList.add('sel');
    board.setAttribute('aria-label', `${describe(p)}; chosen: take ${k}`);
  });
  $('ex-board').replaceChildren(board);
}

const seatName = (i) => (i ? 'second' : 'first');

// The explorer of Fibonacci Nim and Super-Nim: the position after the moves of
// the link, and every move with its value, each linking to the position after it.
function exploreOther(game, params) {
  const status = $('ox-status');
  const table = $('ox-moves');
  status.className = 'status';
  table.tHead.innerHTML = '';
  table.tBodies[0].innerHTML = '';
  $('ox-board').replaceChildren();
  $('ex-fib-form').hidden = game !== 'fibonacci';
  $('ex-sn-form').hidden = game !== 'super-nim';
  if (!W) return; // the module is not in yet
  const moves = (params.get('moves') || '').split('.').filter((w) => w);
  try {
    if (game === 'fibonacci') {
      const n = Number(params.get('n') || 20);
      const f = $('ex-fib-form');
      f.n.value = n;
      f.moves.value = moves.join(' ');
      const link = (ms) => exploreLink({ game, n, moves: ms.join('.') });
      $('ox-permalink').href = link(moves);
      const e = fibExplore(n, moves.join(' '));
      if (e.winner !== null) {
        status.innerHTML = `<span id="ox-value" data-value="over">The ${seatName(e.winner)} player took the last stone and won.</span>`;
        return;
      }
      status.innerHTML = `${e.stones} stones, limit ${e.limit} (the ${seatName(e.mover)} player to move): ` +
        `<span class="${e.value}" id="ox-value" data-value="${e.value}">${e.value}</span>`;
      // The pile drawn, each take coloured by its value; a click walks in.
      const hints = Object.assign((k) => e.moves.find((x) => x.take === k), { all: e.moves.map((x) => ({ ...x, distance: null })) });
      const legal = Math.min(e.limit, e.stones);
      const head = (w) => [centerText(w, 16, `${e.stones} stones`, 15), centerText(w, 34, `limit ${e.limit}`, 12)];
      const walk = (k) => { if (k < e.stones) location.hash = link(moves.concat([String(k)])); };
      const board = pileSvg({ stones: e.stones, legal, head, label: `Fibonacci Nim: ${e.stones} stones, limit ${e.limit}`, hints, pick: walk, selected: 0 });
      board.dataset.stones = e.stones;
      $('ox-board').replaceChildren(board);
      table.tHead.innerHTML = '<tr><th>take</th><th class="l">value</th><th class="l">position after (stones, limit)</th></tr>';
      table.tBodies[0].innerHTML = e.moves.map((mv) => `<tr data-move="${mv.take}" data-value="${mv.value}">` +
        `<td><a href="${link(moves.concat([String(mv.take)]))}">${mv.take}</a></td><td class="l ${mv.value}">${mv.value}</td>` +
        `<td class="l">${mv.after ? `${mv.after[0]} ${mv.after[1]}` : 'the pile is empty: the mover wins'}</td></tr>`).join('');
    } else {
      const heaps = (params.get('heaps') || '2.4.5').split('.').join(' ');
      const cap = Number(params.get('cap') || 24);
      const f = $('ex-sn-form');
      f.heaps.value = heaps;
      f.cap.value = cap;
      f.moves.value = moves.join(' ');
      const link = (ms) => exploreLink({ game, heaps: heaps.split(' ').join('.'), cap, moves: ms.join('.') });
      $('ox-permalink').href = link(moves);
      const e = snExplore(heaps, cap, moves.join(' '), true);
      const where = `heaps ${e.heaps.join(' ') || '(none)'}, ${e.plies_left} plies left, points ${e.scores[0]} (first) and ${e.scores[1]} (second)`;
      if (e.over) {
        const end = e.winner === null ? 'a draw' : `the ${seatName(e.winner)} player wins`;
        status.innerHTML = `${esc(where)}: the game is over, <span id="ox-value" data-value="over">${end}</span>.`;
        return;
      }
      // The heaps drawn, each column coloured by the result of its best move.
      const head = (w) => [centerText(w, 16, `${e.plies_left} plies left · points ${e.scores[0]} (first), ${e.scores[1]} (second)`, 13)];
      const board = heapsSvg({ heaps: e.heaps, head, label: `Super-Nim: ${where}`, selected: null, pick: null });
      for (const g of board.querySelectorAll('.col')) {
        const h = Number(g.dataset.size);
        const best = e.moves.filter((_, j) => e.touches[j][0] === h && e.moves[j].result).sort((a, b) => b.value - a.value)[0];
        if (best) g.classList.add(best.result);
      }
      $('ox-board').replaceChildren(board);
      const value = e.value === null
        ? '<span id="ox-value" data-value="">the solver could not finish within its bound: the moves are listed without values</span>'
        : `best play gives the mover a margin of <span class="${e.result}" id="ox-value" data-value="${e.value}">${e.value} (${e.result})</span>`;
      status.innerHTML = `${esc(where)} (the ${seatName(e.mover)} player to move, ahead by ${e.lead}): ${value}`;
      table.tHead.innerHTML = '<tr><th class="l">move</th><th>margin</th><th class="l">result</th></tr>';
      table.tBodies[0].innerHTML = e.moves.map((mv) => `<tr data-move="${mv.move}" data-value="${mv.value ?? ''}">` +
        `<td class="l"><a href="${link(moves.concat([mv.move]))}">${mv.move}</a> (${esc(mv.words)})</td>` +
        `<td>${mv.value ?? '?'}</td><td class="l ${mv.result ?? ''}">${mv.result ?? '?'}</td></tr>`).join('');
    }
  } catch (err) {
    status.className = 'status error';
    status.textContent = err.message;
  }
}

$('ex-game').addEventListener('change', (ev) => { location.hash = exploreLink({ game: ev.target.value }); });
$('ex-fib-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const f = ev.target;
  location.hash = exploreLink({ game: 'fibonacci', n: f.n.value, moves: f.moves.value.trim().split(/[\s,]+/).filter((w) => w).join('.') });
});
$('ex-sn-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const dots = (t) => t.trim().split(/[\s,]+/).filter((w) => w).join('.');
  location.hash = exploreLink({ game: 'super-nim', heaps: dots(f.heaps.value), cap: f.cap.value, moves: dots(f.moves.value) });
});

// Run `job` once the page has painted what is in the document now: after the
// next frame has begun, so that the work does not compete with that paint.
function afterPaint(job) {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(job, 0)));
}

// The distances of every game in the table (distances.bin, gzip, preloaded by
// index.html; 1.3 MB once unzipped by the browser), handed to the module; without
// them (no DecompressionStream, or a file refused) it solves them itself when
// first asked.
async function fetchDistances() {
  try {
    const r = await fetch('distances.bin');
    if (!r.ok) return null;
    return await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  } catch (e) {
    return null;
  }
}

async function loadDistances() {
  // After the first answer is painted: unzipping, copying and checking them is
  // work on this thread.
  await new Promise((done) => afterPaint(done));
  const bytes = await fetchDistances();
  if (!bytes) return;
  const at = W.nb_input(bytes.byteLength);
  if (at === 0) return;
  new Uint8Array(W.memory.buffer, at, bytes.byteLength).set(new Uint8Array(bytes));
  // 1: taken; else refused (not the table box's), and solved when first needed.
  if (W.nb_load_distances() === 1) window.nimbotDistancesLoaded = performance.now();
}

$('ex-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const pos = f.pos.value.trim();
  location.hash = pos
    ? exploreLink({ m: f.m.value, pos: pos.split(/[\s,]+/).join('.') })
    : exploreLink({ n: f.n.value, r: f.r.value, m: f.m.value, moves: f.moves.value.trim().split(/[\s,]+/).filter((w) => w).join('.') });
});

// ---- Boards ---------------------------------------------------------------------

const SVGNS = 'http://www.w3.org/2000/svg';

// An SVG element `tag` with `attrs`, its children appended.
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

// A hint's class and how dark it is: a win sooner is darker, a loss held out
// longer is darker (the explorer's order).
function hintStyle(mv, all) {
  if (!mv || !mv.value) return {};
  const same = all.filter((x) => x.value === mv.value && x.distance !== null).map((x) => x.distance);
  let opacity = 1;
  if (mv.distance !== null && same.length > 1) {
    const lo = Math.min(...same);
    const hi = Math.max(...same);
    const t = hi === lo ? 0 : (mv.distance - lo) / (hi - lo);
    opacity = mv.value === 'win' ? 1 - 0.55 * t : 0.45 + 0.55 * t;
  }
  return { cls: mv.value, opacity: opacity.toFixed(2) };
}

function plainPlies(d) {
  return d === null || d === undefined ? '' : ` in ${plies(d)}`;
}

// A pile drawn as stones, the top one first (reading order), in rows of ten
// and blocks of fifty so that 999 still reads at a glance; the stones the mover
// may take (`legal`, the top ones) are marked and the limit drawn after the
// last of them; `leaving` more stones fade out above the pile (the last move).
// `pick(k)` takes k; `hints(k)` is the move that takes k, with its value.
function pileSvg({ stones, legal, leaving = 0, head, label, hints, pick, selected }) {
  const total = stones + leaving;
  const pitch = total > 50 ? 10 : 24;
  const r = pitch * 0.4;
  const perRow = 10;
  const rowsPerBlock = 5;
  const blockW = perRow * pitch;
  const blockH = rowsPerBlock * pitch;
  const gap = pitch;
  const blocks = Math.max(1, Math.ceil(total / (perRow * rowsPerBlock)));
  const cols = total > 50 ? Math.min(4, blocks) : 1;
  const rowsOfBlocks = Math.ceil(blocks / cols);
  const usedRows = total > 50 ? rowsPerBlock : Math.max(1, Math.ceil(total / perRow));
  const width = Math.max(300, cols * (blockW + gap) + gap);
  const top = 46;
  const height = top + (total > 50 ? rowsOfBlocks * (blockH + gap) : usedRows * pitch + gap);
  const x0 = (width - (cols * (blockW + gap) - gap)) / 2;
  const at = (slot) => {
    const block = Math.floor(slot / 50);
    const inBlock = slot % 50;
    const bx = x0 + (block % cols) * (blockW + gap);
    const by = top + Math.floor(block / cols) * (blockH + gap);
    return [bx + (inBlock % perRow) * pitch + pitch / 2, by + Math.floor(inBlock / perRow) * pitch + pitch / 2];
  };
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': label, tabindex: pick ? 0 : null });
  root.append(...head(width));
  for (let slot = 0; slot < total; slot++) {
    const [cx, cy] = at(slot);
    const c = svg('circle', { cx, cy, r, class: 'stone' });
    if (slot < leaving) {
      c.classList.add('leaving');
      c.dataset.leaving = '1';
    } else {
      const k = slot - leaving + 1; // the k-th stone from the top
      c.dataset.k = k;
      if (k <= legal) {
        c.classList.add('legal');
        const mv = hints && hints(k);
        const h = mv ? hintStyle(mv, hints.all) : {};
        if (h.cls) {
          c.classList.add(h.cls);
          c.setAttribute('fill-opacity', h.opacity);
        }
        if (k === selected) c.classList.add('sel');
        c.append(svg('title', {}, `take ${k}${mv && mv.value ? `: ${mv.value}${plainPlies(mv.distance)}` : ''}`));
        if (pick) c.addEventListener('click', () => pick(k));
      }
    }
    root.append(c);
  }
  if (legal > 0 && legal < stones) {
    // The limit: a bar after the last stone the mover may take.
    const [cx, cy] = at(leaving + legal - 1);
    root.append(svg('line', { x1: cx + pitch / 2, y1: cy - pitch / 2, x2: cx + pitch / 2, y2: cy + pitch / 2, stroke: '#d97306', 'stroke-width': 3, class: 'limit' }));
  }
  return root;
}

// The band above a pile: each seat, its resets as tokens (filled: left), and
// whose turn it is.
function seatsHead(width, seats) {
  const out = [];
  seats.forEach((s, i) => {
    const x = i === 0 ? 10 : width - 10;
    const anchor = i === 0 ? 'start' : 'end';
    out.push(svg('text', { x, y: 16, 'text-anchor': anchor, 'font-size': 14, 'font-weight': s.turn ? 'bold' : 'normal', fill: s.turn ? '#000' : '#555' },
      `${s.turn ? '▶ ' : ''}${s.name}${s.extra ? ` ${s.extra}` : ''}`));
    if (s.resets) {
      for (let t = 0; t < s.resets.total; t++) {
        const tx = i === 0 ? 14 + t * 14 : width - 14 - t * 14;
        out.push(svg('rect', { x: tx - 5, y: 24, width: 10, height: 10, rx: 2, fill: t < s.resets.left ? '#d97306' : 'none', stroke: '#d97306', class: 'token' },
          svg('title', {}, `${s.name}: ${s.resets.left} of ${s.resets.total} resets left`)));
      }
    }
  });
  return out;
}

function centerText(width, y, text, size = 14) {
  return svg('text', { x: width / 2, y, 'text-anchor': 'middle', 'font-size': size, fill: '#222' }, text);
}

// Super-Nim's heaps as columns, each with its size; clicking one selects it,
// clicking another then merges (or the same one again splits or grows it).
function heapsSvg({ heaps, head, label, selected, pick }) {
  const unit = 14;
  const colW = 34;
  const gap = 12;
  const tallest = Math.max(1, ...heaps);
  const width = Math.max(300, heaps.length * (colW + gap) + gap);
  const top = 54;
  const height = top + tallest * unit + 30;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': label });
  root.append(...head(width));
  const x0 = (width - (heaps.length * (colW + gap) - gap)) / 2;
  heaps.forEach((h, i) => {
    const x = x0 + i * (colW + gap);
    const g = svg('g', { class: 'col', role: pick ? 'button' : 'img', tabindex: pick ? 0 : null, 'aria-label': `heap ${i + 1}: ${h}`, 'data-heap': i, 'data-size': h });
    if (i === selected) g.classList.add('sel');
    const base = height - 24;
    g.append(svg('rect', { x, y: base - h * unit, width: colW, height: h * unit, rx: 3 }));
    for (let u = 1; u < h; u++) g.append(svg('line', { x1: x, x2: x + colW, y1: base - u * unit, y2: base - u * unit, stroke: '#fff', 'stroke-width': 1 }));
    g.append(svg('text', { x: x + colW / 2, y: base - h * unit - 4, 'text-anchor': 'middle', 'font-size': 13 }, String(h)));
    if (pick) {
      g.addEventListener('click', () => pick(i));
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); pick(i); } });
    }
    root.append(g);
  });
  return root;
}

// ---- Play ---------------------------------------------------------------------

let game = null;

function newGame() {
  const f = $('pl-form');
  stopClock();
  game = {
    kind: f.game.value, n: Number(f.n.value), r: Number(f.r.value), m: Number(f.m.value),
    heaps: f.heaps.value.trim(), cap: Number(f.cap.value),
    human: f.seat.value === 'first' ? 0 : 1, policy: f.policy.value, moves: [], seats: [], started: Date.now() / 1000,
    clock: Number(f.clock.value), left: [Number(f.clock.value), Number(f.clock.value)], flagged: null,
    selected: null, k: 1, shown: 0,
  };
  playRender();
}

// The moves so far in the notation (each one the module's).
function gameMoves() {
  return game.moves.join(' ');
}

// Expanding Nim's board from the module (`values`: 0 none, 1 values, 2 with
// distances).
function playState(values) {
  put(gameMoves());
  ok(W.nb_play(game.n, game.r, game.m, values));
  return JSON.parse(answerText());
}

// Fibonacci Nim's or Super-Nim's position after the moves so far.
function otherState(values) {
  return game.kind === 'fibonacci' ? fibExplore(game.n, gameMoves()) : snExplore(game.heaps, game.cap, gameMoves(), values);
}

const isOver = (st) => (game.kind === 'expanding' ? st.mover === null : game.kind === 'fibonacci' ? st.winner !== null : st.over);

// nimbot's replies until it is the human's turn or the game is over; the
// stones its replies took.
function botMoves() {
  let st = game.kind === 'expanding' ? playState(0) : otherState(false);
  const before = st.stones;
  const t0 = performance.now();
  while (!isOver(st) && st.mover !== game.human) {
    game.seats.push(st.mover);
    if (game.kind === 'expanding') {
      const [s, c, a, b, f] = st.position;
      const mv = decide({ s, c, a, b, f, m: game.m }, game.policy);
      const listed = st.moves.find((x) => x.take === mv.take && x.reset === mv.reset) ||
        st.moves.find((x) => x.take === Math.min(mv.take, st.stones) && !x.reset);
      game.moves.push(listed.notation);
      st = playState(0);
    } else if (game.kind === 'fibonacci') {
      game.moves.push(fibDecide(game.n, gameMoves()));
      st = otherState(false);
    } else {
      game.moves.push(snDecide(game.heaps, game.cap, gameMoves()));
      st = otherState(false);
    }
  }
  if (game.clock) game.left[1 - game.human] = Math.max(0, game.left[1 - game.human] - (performance.now() - t0) / 1000);
  return before - (st.stones ?? before);
}

// ---- the clock: the human's time runs on the human's turn ----
let ticking = null;
function stopClock() {
  if (ticking) clearInterval(ticking);
  ticking = null;
}

function clockText(t) {
  const s = Math.ceil(t);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function showClocks() {
  const el = $('pl-clocks');
  el.hidden = !game || !game.clock;
  if (el.hidden) return;
  el.textContent = `Clock: you ${clockText(game.left[game.human])}, nimbot ${clockText(game.left[1 - game.human])}`;
}

function startClock() {
  stopClock();
  if (!game.clock) return;
  let last = performance.now();
  ticking = setInterval(() => {
    const now = performance.now();
    game.left[game.human] = Math.max(0, game.left[game.human] - (now - last) / 1000);
    last = now;
    showClocks();
    if (game.left[game.human] === 0) {
      stopClock();
      game.flagged = game.human;
      playRender();
    }
  }, 250);
}

function playMove(notation) {
  game.moves.push(notation);
  game.seats.push(game.human);
  game.selected = null;
  game.k = 1;
  setReset(false);
  playRender();
}

function setReset(on) {
  const b = $('pl-reset');
  b.setAttribute('aria-pressed', on ? 'true' : 'false');
  b.textContent = `Declare a reset: ${on ? 'on' : 'off'}`;
}
const resetOn = () => $('pl-reset').getAttribute('aria-pressed') === 'true';

function playRender() {
  const status = $('pl-status');
  const board = $('pl-board');
  status.className = 'status';
  status.removeAttribute('data-winner');
  $('pl-end').hidden = true;
  $('pl-actions').innerHTML = '';
  $('pl-chart').innerHTML = '';
  $('pl-reset').hidden = !game || game.kind !== 'expanding';
  $('pl-take-form').hidden = !game || game.kind === 'super-nim';
  $('pl-how').hidden = !game || game.kind === 'super-nim';
  if (!game) {
    board.innerHTML = '';
    status.textContent = 'Choose a game and press New game.';
    return;
  }
  // The view is shown before the module is in: the game starts when it is
  // (the module's arrival draws the view again).
  if (!W) {
    board.innerHTML = '';
    status.textContent = 'Loading nimbot…';
    return;
  }
  let leaving = 0;
  let st;
  const hints = $('pl-hints').checked;
  $('pl-legend').hidden = !hints;
  try {
    if (game.flagged === null) leaving = botMoves();
    st = game.kind === 'expanding' ? playState(hints ? 2 : 0) : otherState(hints);
  } catch (err) {
    status.className = 'status error';
    status.textContent = err.message;
    return;
  }
  const you = (seat) => (seat === game.human ? 'you' : 'nimbot');
  $('pl-moves').innerHTML = game.moves.map((mv, i) =>
    `<li data-seat="${game.seats[i]}" data-move="${esc(mv)}">${you(game.seats[i])} ${esc(mv)}</li>`).join('');
  const over = isOver(st) || game.flagged !== null;
  if (game.kind === 'expanding') drawExpanding(st, leaving, over);
  else if (game.kind === 'fibonacci') drawFibonacci(st, leaving, over);
  else drawSuperNim(st, over);
  showClocks();
  if (over) {
    stopClock();
    endGame(st);
  } else {
    startClock();
  }
  if (leaving > 0) setTimeout(() => { for (const c of board.querySelectorAll('.leaving')) c.remove(); }, 650);
}

function endGame(st) {
  const status = $('pl-status');
  let winner;
  if (game.flagged !== null) {
    winner = 1 - game.flagged;
    status.textContent = 'Your time ran out: nimbot wins.';
  } else if (game.kind === 'super-nim') {
    winner = st.winner;
    const who = winner === null ? 'a draw' : winner === game.human ? 'you win' : 'nimbot wins';
    status.textContent = `Points: you ${st.scores[game.human]}, nimbot ${st.scores[1 - game.human]}: ${who}.`;
  } else {
    winner = st.winner;
    status.textContent = winner === game.human ? 'You took the last stone: you win.' : 'nimbot took the last stone: nimbot wins.';
  }
  status.dataset.winner = winner === null ? 'draw' : winner;
  if (game.kind !== 'expanding' || game.flagged !== null) return;
  const names = game.human === 0 ? ['you', 'nimbot'] : ['nimbot', 'you'];
  const text = record({
    command: 'web-play', stones: game.n, resets: game.r, init_max: game.m, names, seat: 1 - game.human,
    policy: game.policy, moves: gameMoves(), reason: `Player ${names[winner]} won the game!`,
    started_unix: game.started,
  });
  download($('pl-download'), text);
  $('pl-analyze').onclick = (ev) => { ev.preventDefault(); location.hash = '#analysis'; analyze(text); };
  $('pl-end').hidden = false;
}

// The value history so far, under the board: the Analysis view's chart (the
// module's, of the game's moves).
function showChart() {
  if (game.moves.length === 0) return;
  try {
    ok(W.nb_chart());
    // (The same chart as Analysis's, under its own id: both views are in the page.)
    $('pl-chart').innerHTML = answerText().replace('id="an-svg"', 'id="pl-svg"');
  } catch (e) {
    $('pl-chart').textContent = '';
  }
}

// The take form and the board's keys: the k-th stone chosen, Enter takes it.
function pickTake(st, k) {
  const mv = st.moves.find((x) => x.take === k && x.reset === resetOn()) || st.moves.find((x) => x.take === k);
  if (mv) playMove(game.kind === 'expanding' ? mv.notation : String(mv.take));
}

function pileKeys(root, st, legal) {
  root.addEventListener('keydown', (ev) => {
    if (['ArrowRight', 'ArrowDown'].includes(ev.key)) game.k = Math.min(legal, game.k + 1);
    else if (['ArrowLeft', 'ArrowUp'].includes(ev.key)) game.k = Math.max(1, game.k - 1);
    else if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); pickTake(st, game.k); return; } else return;
    ev.preventDefault();
    game.keyed = true;
    $('pl-take').value = game.k;
    for (const c of root.querySelectorAll('.stone.sel')) c.classList.remove('sel');
    const c = root.querySelector(`.stone[data-k="${game.k}"]`);
    if (c) c.classList.add('sel');
    root.setAttribute('aria-label', `${root.dataset.label}; chosen: take ${game.k}`);
  });
}

function drawPile(st, opts) {
  const board = $('pl-board');
  const legal = opts.over ? 0 : Math.min(st.limit, st.stones);
  const hintMoves = st.moves.filter((x) => x.value && (game.kind !== 'expanding' || x.reset === resetOn()));
  const hints = $('pl-hints').checked && !opts.over ? Object.assign((k) => hintMoves.find((x) => x.take === k), { all: hintMoves }) : null;
  const label = `${opts.label}${legal ? `; you may take 1 to ${legal}` : ''}`;
  const root = pileSvg({
    stones: st.stones, legal: opts.mine ? legal : 0, leaving: opts.leaving, head: opts.head, label, hints,
    pick: opts.mine ? (k) => pickTake(st, k) : null, selected: game.keyed ? game.k : 0,
  });
  root.dataset.label = label;
  root.dataset.stones = st.stones;
  if (opts.mine) pileKeys(root, st, legal);
  board.replaceChildren(root);
  const take = $('pl-take');
  take.max = legal;
  take.disabled = !opts.mine;
  $('pl-take-go').disabled = !opts.mine;
}

function drawExpanding(st, leaving, over) {
  const mine = !over && st.mover === game.human;
  const canReset = st.moves.some((x) => x.reset);
  $('pl-reset').disabled = !mine || !canReset;
  if (!canReset) setReset(false);
  const seats = [0, 1].map((seat) => ({
    name: seat === game.human ? 'you' : 'nimbot', turn: !over && st.mover === seat,
    resets: { left: st.resets[seat], total: game.r },
  }));
  const head = (w) => [...seatsHead(w, seats.map((s, i) => (i === 0 ? s : s))),
    centerText(w, 16, `${st.stones} stones`, 15),
    centerText(w, 34, over ? '' : `limit ${st.limit}${st.reset_pending ? ' (a reset: back to M)' : ''}`, 12)];
  const label = `Expanding Nim: ${st.stones} stones, limit ${st.limit}, your resets ${st.resets[game.human]}, nimbot's ${st.resets[1 - game.human]}` +
    (over ? '' : `, ${st.mover === game.human ? 'your' : "nimbot's"} turn`);
  drawPile(st, { over, mine, leaving, head, label });
  if (!over) {
    const last = st.played.length ? st.played[st.played.length - 1] : null;
    $('pl-status').innerHTML = 'Your move' + (last ? ` (nimbot took ${last.take}${last.reset ? ' and declared a reset' : ''})` : '') + '.' +
      ($('pl-hints').checked ? ` <span class="${st.value}">You ${st.value === 'win' ? 'can win' : 'lose against best play'}${plainPlies(st.distance)}.</span>` : '');
  }
  $('pl-board').firstChild.dataset.resets = st.resets.join(' ');
  showChart();
}

function drawFibonacci(st, leaving, over) {
  const mine = !over && st.mover === game.human;
  // The module's takes, with a notation of their own: the take.
  st.moves = st.moves.map((x) => ({ ...x, distance: null }));
  const seats = [0, 1].map((seat) => ({ name: seat === game.human ? 'you' : 'nimbot', turn: !over && st.mover === seat }));
  const head = (w) => [...seatsHead(w, seats), centerText(w, 16, `${st.stones} stones`, 15),
    centerText(w, 34, over ? '' : `limit ${st.limit}${game.moves.length ? ' (twice the last take)' : ''}`, 12)];
  const label = `Fibonacci Nim: ${st.stones} stones, limit ${st.limit}` + (over ? '' : `, ${mine ? 'your' : "nimbot's"} turn`);
  drawPile(st, { over, mine, leaving, head, label });
  if (!over) {
    $('pl-status').innerHTML = 'Your move.' + ($('pl-hints').checked && st.value ? ` <span class="${st.value}">You ${st.value === 'win' ? 'can win' : 'lose against best play'}.</span>` : '');
  }
}

function drawSuperNim(st, over) {
  const mine = !over && st.mover === game.human;
  const hints = $('pl-hints').checked;
  const seats = [0, 1].map((seat) => ({ name: seat === game.human ? 'you' : 'nimbot', turn: !over && st.mover === seat, extra: `${st.scores[seat]} pts` }));
  const head = (w) => [...seatsHead(w, seats), centerText(w, 16, `${st.plies_left} plies left`, 14)];
  // The moves of the heap chosen (the module names the heaps each move acts on).
  const sel = game.selected !== null && game.selected < st.heaps.length ? game.selected : null;
  const size = sel === null ? null : st.heaps[sel];
  const pick = (i) => {
    const h = st.heaps[i];
    if (game.selected === null || game.selected >= st.heaps.length) { game.selected = i; playRender(); return; }
    const from = st.heaps[game.selected];
    const k = i === game.selected
      ? st.moves.findIndex((_, j) => st.touches[j].length === 1 && st.touches[j][0] === h)
      : st.moves.findIndex((_, j) => st.touches[j].length === 2 && st.touches[j][0] === from && st.touches[j][1] === h);
    if (k >= 0) playMove(st.moves[k].move);
    else { game.selected = i; playRender(); }
  };
  const label = `Super-Nim: heaps ${st.heaps.join(', ') || 'none'}; points: you ${st.scores[game.human]}, nimbot ${st.scores[1 - game.human]}; ${st.plies_left} plies left`;
  const root = heapsSvg({ heaps: st.heaps, head, label, selected: sel, pick: mine ? pick : null });
  root.dataset.heaps = st.heaps.join(' ');
  $('pl-board').replaceChildren(root);
  if (over) return;
  const actions = $('pl-actions');
  const list = st.moves.map((mv, j) => ({ mv, t: st.touches[j] })).filter((x) => size === null || x.t[0] === size);
  if (mine) {
    actions.innerHTML = (size === null ? '<p>Click a heap (or pick a move):</p>' : `<p>Heap of ${size}: click it again, another heap, or:</p>`) +
      list.map((x) => `<button type="button" data-move="${esc(x.mv.move)}" class="${hints ? x.mv.result ?? '' : ''}">${esc(x.mv.words)}` +
        `${hints && x.mv.value !== null ? ` (${x.mv.result} ${x.mv.value > 0 ? '+' : ''}${x.mv.value})` : ''}</button>`).join('');
    for (const b of actions.querySelectorAll('button')) b.onclick = () => playMove(b.dataset.move);
  }
  if (hints) {
    // Each heap's best move coloured on its column.
    for (const g of root.querySelectorAll('.col')) {
      const h = Number(g.dataset.size);
      const mine2 = st.moves.filter((_, j) => st.touches[j][0] === h && st.moves[j].result);
      const best = mine2.sort((a, b) => b.value - a.value)[0];
      if (best) g.classList.add(best.result);
    }
  }
  $('pl-status').innerHTML = 'Your move.' + (hints && st.value !== null ? ` <span class="${st.result}">Best play: a margin of ${st.value} (${st.result}).</span>` : '');
}

// The new-game form shows the fields of the game chosen.
function playForm() {
  const kind = $('pl-game').value;
  const shown = { expanding: 'en', fibonacci: 'fib', 'super-nim': 'sn' }[kind];
  for (const el of $('pl-form').querySelectorAll('.en, .fib, .sn')) el.hidden = !el.classList.contains(shown);
}

function undo() {
  if (!game) return;
  // Back to the human's previous turn: drop nimbot's replies and the human's move.
  const drop = () => { game.moves.pop(); game.seats.pop(); };
  while (game.seats.length && game.seats[game.seats.length - 1] !== game.human) drop();
  if (game.seats.length) drop();
  game.flagged = null;
  game.selected = null;
  playRender();
}

$('pl-game').addEventListener('change', playForm);
playForm();
$('pl-form').addEventListener('submit', (ev) => { ev.preventDefault(); newGame(); });
$('pl-hints').addEventListener('change', playRender);
$('pl-reset').addEventListener('click', () => { setReset(!resetOn()); playRender(); });
$('pl-undo').addEventListener('click', undo);
$('pl-take-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  if (!game) return;
  const st = game.kind === 'expanding' ? playState(0) : otherState(false);
  const k = Number($('pl-take').value);
  if (st.moves.some((x) => x.take === k)) pickTake(st, k);
  else $('pl-status').textContent = `Take 1 to ${Math.min(st.limit, st.stones)}.`;
});
// Keys anywhere in Play (outside the form's fields): r reset, h hints, u undo.
document.addEventListener('keydown', (ev) => {
  if ($('play').hidden || ev.target.closest('input, select, textarea') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === 'r' && !$('pl-reset').hidden && !$('pl-reset').disabled) $('pl-reset').click();
  else if (ev.key === 'h') $('pl-hints').click();
  else if (ev.key === 'u') undo();
});

// ---- Analysis -----------------------------------------------------------------

// The analysis of a record or game log (`nimbot analyze`): its chart, a row a
// ply, and a summary line.
function analyze(text) {
  const status = $('an-status');
  status.className = 'status';
  // A file dropped before the module is in: analysed when it is.
  if (!W) {
    status.textContent = 'Loading nimbot…';
    window.nimbotInstance.then(() => analyze(text));
    return;
  }
  try {
    const a = analysis(text, Number($('an-r').value), Number($('an-m').value));
    $('an-chart').innerHTML = a.svg;
    $('an-plies').tBodies[0].innerHTML = a.plies.map((r, i) =>
      `<tr class="${r.blunder ? 'blunder' : ''}" data-ply="${r.ply}"><td>${r.ply}</td><td>${r.seat}</td><td>${a.notation[i][0]}</td>` +
      `<td>${r.stones_before}</td><td>${r.limit}</td><td class="l ${r.value}">${r.value} ${r.distance ?? '-'}</td>` +
      `<td class="l">${esc(r.verdict)}</td><td class="l">${a.notation[i][1] || '-'}</td></tr>`).join('');
    const s = a.summary;
    const firsts = s.first_blunder_ply.map((ply, seat) => ({ ply, seat })).filter((x) => x.ply !== null)
      .sort((x, y) => x.ply - y.ply);
    const blunders = s.blunders[0] + s.blunders[1];
    status.textContent = `${s.plies} plies; ` + (firsts.length
      ? `first blunder: ply ${firsts[0].ply} by seat ${firsts[0].seat} (${s.names[firsts[0].seat]}); ${blunders} in all`
      : 'no blunders') + (s.reason ? `; ${s.reason}` : '');
  } catch (err) {
    status.className = 'status error';
    status.textContent = err.message;
  }
}

const drop = $('drop');
drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (ev) => {
  ev.preventDefault();
  drop.classList.remove('over');
  const file = ev.dataTransfer.files[0];
  if (file) file.text().then(analyze);
});
$('an-file').addEventListener('change', (ev) => {
  const file = ev.target.files[0];
  if (file) file.text().then(analyze);
});

// ---- Views ----------------------------------------------------------------------

// Show the view of `hash` (the page's address by default; the tests pass one, as
// the browser limits how often a page may rewrite its own address).
function route(hash) {
  const { view, params } = hashParams(typeof hash === 'string' ? hash : location.hash);
  const name = ['explore', 'play', 'analysis'].includes(view) ? view : 'explore';
  for (const v of ['explore', 'play', 'analysis']) {
    $(v).hidden = v !== name;
    $('nav-' + v).className = v === name ? 'on' : '';
  }
  if (name === 'explore') explore(params);
  if (name === 'play') playRender();
}

window.addEventListener('hashchange', () => route());

// For the tests and the benchmark: the same answers the views draw.
// The game being played, as the module says it is (the tests compare the board with it).
const playing = () => game && { kind: game.kind, human: game.human, ...(game.kind === 'expanding' ? playState(0) : otherState(false)) };
window.nimbot = { probe, after, decide, bestLine, replay, analysis, fibExplore, snExplore, route, settle, playing };

(async () => {
  try {
    // The view at once, without answers: the browser lays it out and paints it
    // while the module compiles, so that the frame of the first answer only adds
    // the answer.
    route();
    W = (await window.nimbotInstance).exports;
    distancesLoaded = loadDistances().catch(() => {});
    route();
    // The policies nimbot plays here, from the registry (Policy::ALL): at once
    // for the play view, else after the first answer is painted.
    const fillPolicies = () => {
      $('pl-policy').innerHTML = policies().map((p) =>
        `<option value="${esc(p.name)}"${p.default ? ' selected' : ''}>${esc(p.name)} (${esc(p.summary)})</option>`).join('');
    };
    const filled = $('play').hidden ? new Promise((done) => afterPaint(() => { fillPolicies(); done(); })) : fillPolicies();
    await filled;
    await distancesLoaded;
    window.nimbotReady = true;
  } catch (err) {
    document.querySelector('main').insertAdjacentHTML('afterbegin',
      `<p class="error">nimbot.wasm did not load: ${esc(err.message)}</p>`);
  }
})();
