// nimbot in the browser: the explorer, a board to play on, and a game's value
// history. Every answer comes from the core compiled to WebAssembly
// (nimbot.wasm, web/src/lib.rs): the rules (the position after a move), the
// values and distances of moves, and nimbot's own moves. This file only asks and
// draws. No library, nothing fetched but nimbot.wasm and distances.bin (both
// preloaded by index.html) from the same place.
'use strict';

const UNKNOWN = 0xffffffff;
const POLICIES = { first: 0, trap: 1, longest: 2 };
const REFUSALS = {
  '-1': 'not a position', '-2': 'too many stones for this page',
  '-3': 'the take is outside 1..=limit', '-4': 'no resets left',
  '-5': 'the engine could not answer', '-6': 'unknown policy',
};
let W = null; // the module's exports
const $ = (id) => document.getElementById(id);

// ---- the core, through its exports -------------------------------------------

function refused(code) {
  return new Error(REFUSALS[String(code)] || `error ${code}`);
}

function words(n) {
  return new Uint32Array(W.memory.buffer, W.nb_out(), n);
}

function args(p) {
  return [p.s, p.c, p.a, p.b, p.f, p.m];
}

// The start of a game with N stones, R resets each, initial maximum M.
function start(n, r, m) {
  return { s: n, c: m, a: r, b: r, f: 0, m };
}

function limit(p) {
  return p.f ? p.m : p.c;
}

// Every move of `p` with its value and distance, in the core's probe order.
// Without `distances`, a position in the table gets values alone, at once.
function probe(p, distances = true) {
  const count = W.nb_moves(...args(p), distances ? 1 : 0);
  if (count < 0) throw refused(count);
  const w = words(2 + 4 * count);
  const dist = (d) => (d === UNKNOWN ? null : d);
  const moves = [];
  for (let i = 0; i < count; i++) {
    const o = 2 + 4 * i;
    moves.push({ take: w[o], reset: w[o + 1] === 1, value: w[o + 2] ? 'win' : 'lose', distance: dist(w[o + 3]) });
  }
  return { value: w[0] ? 'win' : 'lose', distance: dist(w[1]), moves };
}

// The opponent's position after `mv`, or null if it empties the pile.
function after(p, mv) {
  const r = W.nb_after(...args(p), mv.take, mv.reset ? 1 : 0);
  if (r < 0) throw refused(r);
  if (r === 0) return null;
  const w = words(5);
  return { s: w[0], c: w[1], a: w[2], b: w[3], f: w[4], m: p.m };
}

function decide(p, policy) {
  const r = W.nb_decide(...args(p), POLICIES[policy]);
  if (r < 0) throw refused(r);
  const w = words(3);
  return { take: w[0], reset: w[1] === 1 };
}

// Winning moves first, fastest first; then losing ones, longest first (stable:
// equal moves keep the probe's order), as `nimbot moves` prints them.
function bestFirst(moves) {
  const key = (m) => [m.value === 'win' ? 0 : 1, m.value === 'win' ? (m.distance || 0) : -(m.distance || 0)];
  return moves.map((m, i) => [key(m), i, m])
    .sort((x, y) => x[0][0] - y[0][0] || x[0][1] - y[0][1] || x[1] - y[1])
    .map((x) => x[2]);
}

// The best-play line from `p` to the end: the first of the best moves each ply.
function bestLine(p) {
  const line = [];
  for (let here = p; here; ) {
    const mv = bestFirst(probe(here).moves)[0];
    line.push(mv);
    here = after(here, mv);
  }
  return line;
}

function moveText(m) {
  return `${m.take}${m.reset ? 'r' : ''}`;
}

function parseMoves(text) {
  return (text || '').split(/[\s,.+]+/).filter((w) => w).map((w) => {
    const x = /^(\d+)([rR]?)$/.exec(w);
    if (!x) throw new Error(`"${w}" is not a move (a take, r after it for a reset)`);
    return { take: Number(x[1]), reset: x[2] !== '' };
  });
}

// The position after `moves` from the start, and who is to move (0 first).
function replay(n, r, m, moves) {
  if (!(n >= 1 && n <= W.nb_max_stones())) throw new Error(`N must be 1..${W.nb_max_stones()}`);
  let p = start(n, r, m);
  for (let i = 0; i < moves.length; i++) {
    if (!p) throw new Error(`the game was over before move ${i + 1}`);
    try {
      p = after(p, moves[i]);
    } catch (e) {
      throw new Error(`move ${i + 1} (${moveText(moves[i])}) is illegal: ${e.message}`);
    }
  }
  return { pos: p, mover: moves.length % 2 };
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

// A game record in the format `--record` writes (host/src/record.rs), which
// `nimbot analyze` and this page's Analysis read.
function record(n, r, m, moves, names, command, policy, winner, reason) {
  const lines = [{
    kind: 'header', format: 1, command, stones: n, resets: r, init_max: m, names,
    seat: null, nimbot: 'web', policy: policy || null, started_unix: Date.now() / 1000,
  }];
  let p = start(n, r, m);
  moves.forEach((mv, i) => {
    const e = probe(p);
    const mine = e.moves.find((x) => x.take === Math.min(mv.take, p.s) && x.reset === (mv.reset && mv.take < p.s));
    lines.push({
      kind: 'ply', ply: i + 1, seat: i % 2, take: mv.take, reset: mv.reset, value: e.value,
      distance: e.distance, blunder: e.value === 'win' && !!mine && mine.value === 'lose', refused: false, clock: null,
    });
    p = after(p, mv);
  });
  lines.push({ kind: 'end', winner, reason });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
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
  body.innerHTML = '';
  $('ex-line').textContent = '';
  $('ex-download').removeAttribute('href');
  $('ex-permalink').href = posParam ? exploreLink({ m, pos: posParam }) : exploreLink({ n, r, m, moves: movesText });
  status.className = 'status';
  let p;
  let moves = null;
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
      if (moves) return exploreLink({ n, r, m, moves: moves.concat([mv]).map(moveText).join('.') });
      const next = after(p, mv);
      return next ? exploreLink({ m, pos: posText(next).split(' ').join('.') }) : null;
    };
    body.innerHTML = bestFirst(e.moves).map((mv) => {
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
    if (moves) {
      const all = moves.concat(best);
      text = record(n, r, m, all, ['first', 'second'], 'web-line', null, (all.length - 1) % 2, 'best play to the end');
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
      moves = parseMoves(movesText);
      const g = replay(n, r, m, moves);
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
  const at = W.nb_scratch(bytes.byteLength);
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
  game = {
    n: Number(f.n.value), r: Number(f.r.value), m: Number(f.m.value),
    human: f.seat.value === 'first' ? 0 : 1, policy: f.policy.value, moves: [],
  };
  playRender();
}

function botMoves() {
  for (;;) {
    const g = replay(game.n, game.r, game.m, game.moves);
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
  if (!game) {
    status.textContent = 'Choose a game and press New game.';
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
    const winner = (game.moves.length - 1) % 2;
    status.dataset.winner = winner;
    status.textContent = winner === game.human
      ? 'You took the last stone: you win.'
      : 'nimbot took the last stone: nimbot wins.';
    const names = game.human === 0 ? ['you', 'nimbot'] : ['nimbot', 'you'];
    const text = record(game.n, game.r, game.m, game.moves, names, 'web-play', game.policy, winner,
      `Player ${names[winner]} won the game!`);
    download($('pl-download'), text);
    $('pl-analyze').onclick = (ev) => { ev.preventDefault(); location.hash = '#analysis'; analyze(text); };
    $('pl-end').hidden = false;
    return;
  }
  const p = g.pos;
  const hints = $('pl-hints').checked ? probe(p) : null;
  const canReset = p.a > 0;
  $('pl-reset').disabled = !canReset;
  if (!canReset) $('pl-reset').checked = false;
  const reset = $('pl-reset').checked;
  status.innerHTML = `Your move: ${esc(describe(p))}.` +
    (hints ? ` <span class="${hints.value}">You ${hints.value === 'win' ? 'can win' : 'lose against best play'} (${plies(hints.distance)}).</span>` : '');
  for (let k = 1; k <= Math.min(limit(p), p.s); k++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.take = k;
    b.textContent = `take ${k}${reset && k < p.s ? ' + reset' : ''}`;
    if (hints) {
      const h = hints.moves.find((x) => x.take === k && x.reset === (reset && k < p.s));
      if (h) {
        const s = document.createElement('small');
        s.className = h.value;
        s.textContent = `${h.value} ${h.distance ?? ''}`;
        b.appendChild(s);
      }
    }
    b.onclick = () => {
      game.moves.push({ take: k, reset: $('pl-reset').checked && k < p.s });
      $('pl-reset').checked = false;
      playRender();
    };
    takes.appendChild(b);
  }
}

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

// A record's or a game log's plies: {n, r, m, names, plies: [{seat, take, reset}], reason}.
function readGame(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length && lines[0].trim().startsWith('{')) {
    const g = { plies: [], names: ['seat 0', 'seat 1'], reason: null };
    for (const l of lines) {
      const x = JSON.parse(l);
      if (x.kind === 'header') Object.assign(g, { n: x.stones, r: x.resets, m: x.init_max, names: x.names });
      else if (x.kind === 'ply') g.plies.push({ seat: x.seat, take: x.take, reset: !!x.reset });
      else if (x.kind === 'end') g.reason = x.reason;
    }
    if (g.n === undefined) throw new Error('the record has no header line');
    return g;
  }
  const g = { plies: [], names: [null, null], reason: null, r: Number($('an-r').value), m: Number($('an-m').value) };
  let first = null;
  for (let i = 0; i < lines.length; i++) {
    const x = /^Player (.*) took (\d+) stones?( and used reset)?\.?$/.exec(lines[i]);
    if (x) {
      const seat = g.plies.length % 2;
      if (g.names[seat] === null) g.names[seat] = x[1];
      g.plies.push({ seat, take: Number(x[2]), reset: !!x[3] });
      const left = /^Stones left: (\d+)/.exec(lines[i + 2] || '');
      if (first === null && left) first = Number(left[1]) + Number(x[2]);
    } else if (lines[i] === 'Game over' && lines[i + 1]) {
      g.reason = lines[i + 1];
    }
  }
  if (first === null) throw new Error('neither a record (JSON lines) nor a game log (Player ... took K stones.)');
  g.n = first;
  g.names = g.names.map((x, i) => x ?? `seat ${i}`);
  return g;
}

// Every ply replayed: the mover's value and distance before it, the winning
// moves, and whether it threw a win away (or was refused), as `nimbot analyze`.
function analyzeGame(g) {
  let p = start(g.n, g.r, g.m);
  const out = [];
  for (const [i, ply] of g.plies.entries()) {
    if (!p) break;
    const e = probe(p);
    const take = Math.min(ply.take, p.s);
    const mine = e.moves.find((x) => x.take === take && x.reset === (ply.reset && take < p.s));
    const row = {
      ply: i + 1, seat: ply.seat, take: ply.take, reset: ply.reset, stones: p.s, limit: limit(p),
      value: e.value, distance: e.distance, winning: e.moves.filter((x) => x.value === 'win'), refused: null,
    };
    try {
      p = after(p, ply);
    } catch (err) {
      row.refused = err.message;
      p = null;
    }
    row.blunder = row.refused !== null || (e.value === 'win' && !!mine && mine.value === 'lose');
    out.push(row);
  }
  return out;
}

const SEAT = ['#1f6fd1', '#d9730d'];

// The value history: one point a ply at the distance before it, coloured by the
// seat winning there; blunders ringed in red, the first one named (as
// `nimbot analyze --plot` draws it).
function chart(g, rows) {
  const w = 640, h = 340, left = 56, right = 16, top = 40, bottom = 44;
  const n = Math.max(rows.length, 1);
  const dmax = Math.max(1, ...rows.map((r) => r.distance || 0));
  const x = (i) => left + (w - left - right) * (i + 0.5) / n;
  const y = (d) => top + (h - top - bottom) * (1 - d / dmax);
  const s = [`<svg xmlns="http://www.w3.org/2000/svg" id="an-svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="${left}" y="16" font-weight="bold">${esc(`N = ${g.n}, R = ${g.r}, M = ${g.m}: ${g.names[0]} (seat 0) v ${g.names[1]} (seat 1)`)}</text>`,
    `<path d="M${left} ${top}V${h - bottom}H${w - right}" stroke="#444" fill="none"/>`,
    `<text x="${(left + w - right) / 2}" y="${h - 8}" text-anchor="middle">ply</text>`,
    `<text x="14" y="${(top + h - bottom) / 2}" transform="rotate(-90 14 ${(top + h - bottom) / 2})" text-anchor="middle">plies to the end</text>`];
  for (const d of [0, Math.floor(dmax / 2), dmax]) s.push(`<text x="${left - 6}" y="${y(d) + 4}" text-anchor="end">${d}</text>`);
  const step = Math.max(1, Math.floor(n / 10));
  rows.forEach((r, i) => { if (i === 0 || (i + 1) % step === 0) s.push(`<text x="${x(i)}" y="${h - bottom + 16}" text-anchor="middle">${i + 1}</text>`); });
  const pts = rows.map((r, i) => (r.distance === null ? null : `${x(i).toFixed(1)},${y(r.distance).toFixed(1)}`)).filter((v) => v);
  if (pts.length > 1) s.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="#999"/>`);
  let first = null;
  rows.forEach((r, i) => {
    if (r.distance === null) return;
    const winning = r.value === 'win' ? r.seat : 1 - r.seat;
    const cx = x(i).toFixed(1), cy = y(r.distance).toFixed(1);
    s.push(`<circle class="ply" data-ply="${i + 1}" cx="${cx}" cy="${cy}" r="4" fill="${SEAT[winning]}"><title>ply ${i + 1}: seat ${r.seat} moves ${moveText(r)}, ${r.value} in ${r.distance}</title></circle>`);
    if (r.blunder) {
      if (!first) first = { i, r, cx: Number(cx), cy: Number(cy) };
      s.push(`<circle class="blunder" data-ply="${i + 1}" cx="${cx}" cy="${cy}" r="8" fill="none" stroke="#d11f1f" stroke-width="2"/>`);
    }
  });
  if (first) {
    const anchor = first.cx > w / 2 ? 'end' : 'start';
    s.push(`<text class="first-blunder" x="${first.cx}" y="${Math.max(first.cy - 12, top)}" fill="#d11f1f" text-anchor="${anchor}">${esc(`first blunder: ply ${first.i + 1} by seat ${first.r.seat} (${g.names[first.r.seat]})`)}</text>`);
  }
  SEAT.forEach((c, seat) => {
    const kx = w - right - 250 + 130 * seat;
    s.push(`<circle cx="${kx}" cy="30" r="4" fill="${c}"/><text x="${kx + 8}" y="34">seat ${seat} winning</text>`);
  });
  s.push('</svg>');
  return s.join('');
}

function analyze(text) {
  const status = $('an-status');
  status.className = 'status';
  try {
    const g = readGame(text);
    const rows = analyzeGame(g);
    $('an-chart').innerHTML = chart(g, rows);
    $('an-plies').tBodies[0].innerHTML = rows.map((r) => {
      const verdict = r.refused ? `BLUNDER: refused (${r.refused})` : r.blunder ? 'BLUNDER: threw the win away'
        : r.value === 'win' ? 'won, kept it' : 'lost';
      return `<tr class="${r.blunder ? 'blunder' : ''}" data-ply="${r.ply}"><td>${r.ply}</td><td>${r.seat}</td><td>${moveText(r)}</td>` +
        `<td>${r.stones}</td><td>${r.limit}</td><td class="l ${r.value}">${r.value} ${r.distance ?? '-'}</td>` +
        `<td class="l">${esc(verdict)}</td><td class="l">${r.winning.map(moveText).join(' ') || '-'}</td></tr>`;
    }).join('');
    const blunders = rows.filter((r) => r.blunder);
    status.textContent = `${rows.length} plies; ` + (blunders.length
      ? `first blunder: ply ${blunders[0].ply} by seat ${blunders[0].seat} (${g.names[blunders[0].seat]}); ${blunders.length} in all`
      : 'no blunders') + (g.reason ? `; ${g.reason}` : '');
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
window.nimbot = { probe, after, decide, bestLine, replay, start, analyzeGame, readGame, route, settle };

(async () => {
  try {
    const module = await window.nimbotModule;
    W = (await WebAssembly.instantiate(module, {})).exports;
    performance.mark('nimbot-instantiated');
    distancesLoaded = loadDistances().catch(() => {});
    route();
    await distancesLoaded;
    window.nimbotReady = true;
  } catch (err) {
    document.querySelector('main').insertAdjacentHTML('afterbegin',
      `<p class="error">nimbot.wasm did not load: ${esc(err.message)}</p>`);
  }
})();
