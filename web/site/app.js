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
  const moves = [];
  for (let i = 0; i < count; i++) moves.push(move(w, 2 + 4 * i));
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
  ok(W.nb_chart());
  return { plies: lines.slice(0, -1), summary: lines[lines.length - 1], svg: answerText() };
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

// A move in the notation the page's links and forms use: `3`, or `2r`.
function moveText(m) {
  return `${m.take}${m.reset ? 'r' : ''}`;
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
  $('ex-line').textContent = '';
  $('ex-download').removeAttribute('href');
  $('ex-permalink').href = posParam ? exploreLink({ m, pos: posParam }) : exploreLink({ n, r, m, moves: movesText });
  status.className = 'status';
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
      if (byMoves) return exploreLink({ n, r, m, moves: movesList.concat([moveText(mv)]).join('.') });
      const next = after(p, mv);
      return next ? exploreLink({ m, pos: posText(next).split(' ').join('.') }) : null;
    };
    body.innerHTML = e.moves.map((mv) => {
      const next = after(p, mv);
      const href = link(mv);
      const where = next ? `<a href="${href}">${esc(posText(next))}</a>` : 'the pile is empty: the mover wins';
      return `<tr data-take="${mv.take}" data-reset="${mv.reset ? 1 : 0}" data-value="${mv.value}" data-distance="${mv.distance ?? ''}">` +
        `<td>${href ? `<a href="${href}">${moveText(mv)}</a>` : moveText(mv)}</td><td class="l ${mv.value}">${mv.value}</td>` +
        `<td>${mv.distance ?? '…'}</td><td class="l">${where}</td></tr>`;
    }).join('');
  };
  // The best line, downloadable as a record.
  const line = (e) => {
    if (e.distance === null) return;
    const best = bestLine(p);
    $('ex-line').textContent = best.map((mv, i) => `${i + 1}. ${moveText(mv)} (${mv.value} ${mv.distance})`).join('  ');
    let text;
    if (byMoves) {
      text = record({
        command: 'web-line', stones: n, resets: r, init_max: m, names: ['first', 'second'], seat: null,
        policy: null, moves: movesList.concat(best.map(moveText)).join(' '), reason: 'best play to the end',
        started_unix: Date.now() / 1000,
      });
    } else {
      text = JSON.stringify({
        stones: p.s, cap: p.c, own_resets: p.a, opp_resets: p.b, reset_pending: p.f === 1, init_max: p.m,
        value: e.value, distance: e.distance, line: best,
      }) + '\n';
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

const seatName = (i) => (i ? 'second' : 'first');

// The explorer of Fibonacci Nim and Super-Nim: the position after the moves of
// the link, and every move with its value, each linking to the position after it.
function exploreOther(game, params) {
  const status = $('ox-status');
  const table = $('ox-moves');
  status.className = 'status';
  table.tHead.innerHTML = '';
  table.tBodies[0].innerHTML = '';
  $('ex-fib-form').hidden = game !== 'fibonacci';
  $('ex-sn-form').hidden = game !== 'super-nim';
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

// ---- Play ---------------------------------------------------------------------

let game = null;

function newGame() {
  const f = $('pl-form');
  if (f.game.value !== 'expanding') {
    game = {
      kind: f.game.value, n: Number(f.n.value), heaps: f.heaps.value.trim(), cap: Number(f.cap.value),
      human: f.seat.value === 'first' ? 0 : 1, moves: [],
    };
    playRender();
    return;
  }
  game = {
    kind: 'expanding',
    n: Number(f.n.value), r: Number(f.r.value), m: Number(f.m.value),
    human: f.seat.value === 'first' ? 0 : 1, policy: f.policy.value, moves: [], started: Date.now() / 1000,
  };
  playRender();
}

// The moves so far in the notation.
function gameMoves() {
  return game.moves.map(moveText).join(' ');
}

// nimbot's replies until it is the human's turn or the game is over.
function botMoves() {
  for (;;) {
    const g = replay(game.n, game.r, game.m, gameMoves());
    if (!g.pos || g.mover === game.human) return g;
    game.moves.push(decide(g.pos, game.policy));
  }
}

function playRender() {
  const status = $('pl-status');
  const takes = $('pl-takes');
  takes.innerHTML = '';
  status.className = 'status';
  status.removeAttribute('data-winner');
  $('pl-end').hidden = true;
  $('pl-reset-label').hidden = !!game && game.kind !== 'expanding';
  if (!game) {
    status.textContent = 'Choose a game and press New game.';
    return;
  }
  if (game.kind !== 'expanding') {
    playOther(status, takes);
    return;
  }
  let g;
  try {
    g = botMoves();
  } catch (err) {
    status.className = 'status error';
    status.textContent = err.message;
    return;
  }
  $('pl-moves').textContent = game.moves.map((mv, i) => `${i % 2 === game.human ? 'you' : 'nimbot'} ${moveText(mv)}`).join(', ') || '(none yet)';
  if (!g.pos) {
    const winner = g.winner;
    status.dataset.winner = winner;
    status.textContent = winner === game.human
      ? 'You took the last stone: you win.'
      : 'nimbot took the last stone: nimbot wins.';
    const names = game.human === 0 ? ['you', 'nimbot'] : ['nimbot', 'you'];
    const text = record({
      command: 'web-play', stones: game.n, resets: game.r, init_max: game.m, names, seat: 1 - game.human,
      policy: game.policy, moves: gameMoves(), reason: `Player ${names[winner]} won the game!`,
      started_unix: game.started,
    });
    download($('pl-download'), text);
    $('pl-analyze').onclick = (ev) => { ev.preventDefault(); location.hash = '#analysis'; analyze(text); };
    $('pl-end').hidden = false;
    return;
  }
  const p = g.pos;
  const hints = $('pl-hints').checked;
  // The legal moves (with their values and distances for the hints).
  const legal = probe(p, hints);
  const canReset = legal.moves.some((x) => x.reset);
  $('pl-reset').disabled = !canReset;
  if (!canReset) $('pl-reset').checked = false;
  const reset = $('pl-reset').checked;
  status.innerHTML = `Your move: ${esc(describe(p))}.` +
    (hints ? ` <span class="${legal.value}">You ${legal.value === 'win' ? 'can win' : 'lose against best play'} (${plies(legal.distance)}).</span>` : '');
  // A button a take, with the reset when it is asked for and the take allows it.
  const plain = legal.moves.filter((x) => !x.reset).sort((x, y) => x.take - y.take);
  for (const base of plain) {
    const mv = (reset && legal.moves.find((x) => x.reset && x.take === base.take)) || base;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.take = mv.take;
    b.textContent = `take ${mv.take}${mv.reset ? ' + reset' : ''}`;
    if (hints) {
      const s = document.createElement('small');
      s.className = mv.value;
      s.textContent = `${mv.value} ${mv.distance ?? ''}`;
      b.appendChild(s);
    }
    b.onclick = () => {
      game.moves.push({ take: mv.take, reset: mv.reset });
      $('pl-reset').checked = false;
      playRender();
    };
    takes.appendChild(b);
  }
}

// Fibonacci Nim and Super-Nim against nimbot: nimbot's replies, then a button a
// move (with its value when hints are on), until the game is over.
function playOther(status, takes) {
  const fib = game.kind === 'fibonacci';
  const sofar = () => game.moves.join(' ');
  const look = (values) => (fib ? fibExplore(game.n, sofar()) : snExplore(game.heaps, game.cap, sofar(), values));
  const over = (e) => (fib ? e.winner !== null : e.over);
  let e;
  try {
    e = look(false);
    while (!over(e) && e.mover !== game.human) {
      game.moves.push(fib ? fibDecide(game.n, sofar()) : snDecide(game.heaps, game.cap, sofar()));
      e = look(false);
    }
  } catch (err) {
    status.className = 'status error';
    status.textContent = err.message;
    return;
  }
  $('pl-moves').textContent = game.moves.map((mv, i) => `${i % 2 === game.human ? 'you' : 'nimbot'} ${mv}`).join(', ') || '(none yet)';
  if (over(e)) {
    status.dataset.winner = e.winner === null ? 'draw' : e.winner;
    const who = e.winner === null ? 'a draw' : e.winner === game.human ? 'you win' : 'nimbot wins';
    status.textContent = fib
      ? `${e.winner === game.human ? 'You' : 'nimbot'} took the last stone: ${who}.`
      : `Points: you ${e.scores[game.human]}, nimbot ${e.scores[1 - game.human]}: ${who}.`;
    return;
  }
  const hints = $('pl-hints').checked;
  if (hints && !fib) e = look(true);
  status.innerHTML = 'Your move: ' + esc(fib ? `${e.stones} stones, limit ${e.limit}.`
    : `heaps ${e.heaps.join(' ')}, ${e.plies_left} plies left, points: you ${e.scores[game.human]}, nimbot ${e.scores[1 - game.human]}.`) +
    (hints && e.value !== null ? ` <span class="${fib ? e.value : e.result}">${fib ? `You ${e.value === 'win' ? 'can win' : 'lose against best play'}.` : `Best play: a margin of ${e.value} (${e.result}).`}</span>` : '');
  for (const mv of e.moves) {
    const b = document.createElement('button');
    b.type = 'button';
    const move = fib ? String(mv.take) : mv.move;
    b.dataset.move = move;
    b.textContent = fib ? `take ${mv.take}` : mv.words;
    if (hints) {
      const s = document.createElement('small');
      s.className = fib ? mv.value : (mv.result ?? '');
      s.textContent = fib ? mv.value : `${mv.result ?? '?'} ${mv.value ?? ''}`;
      b.appendChild(s);
    }
    b.onclick = () => {
      game.moves.push(move);
      playRender();
    };
    takes.appendChild(b);
  }
}

// The new-game form shows the fields of the game chosen.
function playForm() {
  const kind = $('pl-game').value;
  const shown = { expanding: 'en', fibonacci: 'fib', 'super-nim': 'sn' }[kind];
  for (const el of $('pl-form').querySelectorAll('.en, .fib, .sn')) el.hidden = !el.classList.contains(shown);
}

$('pl-game').addEventListener('change', playForm);
playForm();
$('pl-form').addEventListener('submit', (ev) => { ev.preventDefault(); newGame(); });
$('pl-hints').addEventListener('change', playRender);
$('pl-reset').addEventListener('change', playRender);
$('pl-undo').addEventListener('click', () => {
  if (!game) return;
  // Back to the human's previous turn: drop nimbot's replies and the human's move.
  do { game.moves.pop(); } while (game.moves.length > 0 && game.moves.length % 2 !== game.human);
  if (game.moves.length % 2 !== game.human) game.moves = [];
  playRender();
});

// ---- Analysis -----------------------------------------------------------------

// The analysis of a record or game log (`nimbot analyze`): its chart, a row a
// ply, and a summary line.
function analyze(text) {
  const status = $('an-status');
  status.className = 'status';
  try {
    const a = analysis(text, Number($('an-r').value), Number($('an-m').value));
    $('an-chart').innerHTML = a.svg;
    $('an-plies').tBodies[0].innerHTML = a.plies.map((r) =>
      `<tr class="${r.blunder ? 'blunder' : ''}" data-ply="${r.ply}"><td>${r.ply}</td><td>${r.seat}</td><td>${moveText(r)}</td>` +
      `<td>${r.stones_before}</td><td>${r.limit}</td><td class="l ${r.value}">${r.value} ${r.distance ?? '-'}</td>` +
      `<td class="l">${esc(r.verdict)}</td><td class="l">${r.winning_moves.map(moveText).join(' ') || '-'}</td></tr>`).join('');
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
window.nimbot = { probe, after, decide, bestLine, replay, analysis, fibExplore, snExplore, route, settle };

(async () => {
  try {
    const module = await window.nimbotModule;
    W = (await WebAssembly.instantiate(module, {})).exports;
    performance.mark('nimbot-instantiated');
    distancesLoaded = loadDistances().catch(() => {});
    route();
    // The policies nimbot plays here, from the registry (Policy::ALL).
    $('pl-policy').innerHTML = policies().map((p) =>
      `<option value="${esc(p.name)}"${p.default ? ' selected' : ''}>${esc(p.name)} (${esc(p.summary)})</option>`).join('');
    await distancesLoaded;
    window.nimbotReady = true;
  } catch (err) {
    document.querySelector('main').insertAdjacentHTML('afterbegin',
      `<p class="error">nimbot.wasm did not load: ${esc(err.message)}</p>`);
  }
})();
