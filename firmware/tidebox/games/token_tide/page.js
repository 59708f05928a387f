// Token Tide on the phones: the tide card and the countdown, this player's hidden allocation (the
// form, then "locked in" until the reveal), who is ready (names only), the reveal as far as the box
// has shown it, the final standings and the printable record sheet. Only this player's own
// allocation ever reaches the page before the reveal (the box's private view). The markup comes
// from this file's constants; player text is always set as text, never as markup.
(function () {
  'use strict';
  var T = window.Tidebox;
  var el = T.el;
  var fill = T.fill;
  var pts = T.pts;
  var list = T.list;
  function counters(n) { return n + (n === 1 ? ' counter' : ' counters'); }

  var ISLANDS = ['Beacon', 'Grove', 'Mooring'];
  var COUNTERS = 7;
  var CARDS = {
    P00: 'Practice', T01: 'Low Water', T02: 'Middle Water', T03: 'High Water',
    T04: 'Shallow Channel', T05: 'Full Channel', T06: 'Turning Water'
  };
  var DRAFT_KEY = 'tidebox.draft';
  // The box's stepped reveal: the winning amounts, Beacon, Grove, Mooring, the round's points, the
  // standings. The phones show as far as the box has gone (its view's shown.reveal), never further.
  var LAST_STEP = 5;
  var STEP_WHAT = ['the winning amounts', 'who scores on Beacon', 'who scores on Grove',
    'who scores on Mooring', 'the round\u2019s points'];
  var HINTS = ['most counters: 6 points (tied: 2 points each)',
    'fewest counters above 0: 4 points (tied: 1 point each)', ''];

  // ---------------------------------------------------------------- the markup (built once)
  function island(name, i) {
    var step = function (d, word, sign) {
      return '<button type="button" data-i="' + i + '" data-d="' + d + '"><span aria-hidden="true">' + sign +
        '</span><span class="vh">' + word + ' on ' + name + '</span></button>';
    };
    return '<div class="isl"><label for="i' + i + '">' + name + '</label><span id="h' + i + '" class="hint">' +
      HINTS[i] + '</span><div class="step">' + step(-1, 'Fewer', '\u2212') + '<input id="i' + i +
      '" type="number" min="0" max="7" step="1" inputmode="numeric" aria-describedby="h' + i + '">' +
      step(1, 'More', '+') + '</div></div>';
  }
  var MARKUP = [
    '<div id="tide" class="tide card">',
    '<p id="roundLabel" class="round"></p>',
    '<div class="tidehead"><div><h1 id="cardName"></h1>',
    '<p id="targetLine" class="target">Mooring target <b id="target"></b></p></div>',
    '<div id="timerBox" class="timer" hidden><span id="timer" role="timer"></span>',
    '<span id="timerNote" class="small"></span>',
    '<span class="meter" aria-hidden="true"><i id="timerBar"></i></span></div></div>',
    '<p id="readerLine" class="small"></p></div>',
    '<p id="status" class="status" role="status"></p>',
    '<form id="alloc" class="card" novalidate hidden><h2>Your 7 counters (hidden)</h2>',
    '<div class="isls">' + ISLANDS.map(island).join('') + '</div>',
    '<p id="left" class="left" aria-live="polite"></p>',
    '<button id="ready" class="wide" type="submit" disabled>Ready</button>',
    '<p id="allocErr" class="err" role="alert"></p></form>',
    '<div id="locked" class="card locked" hidden><h2>Locked in</h2><ul id="lockedList" class="split"></ul>',
    '<p class="small">Hidden until the reveal. You can change it until then.</p>',
    '<button id="change" class="wide ghost" type="button">Change</button>',
    '<p id="lockErr" class="err" role="alert"></p></div>',
    '<div id="readyBox" class="card" hidden><h2 id="readyHead">Who is ready</h2>',
    '<ul id="readyList" class="names"></ul></div>',
    '<div id="final" class="card" hidden><h2>Final standings</h2><p id="winners" class="winners"></p>',
    '<ol id="standings" class="standings"></ol></div>',
    '<details id="reveal" class="card" hidden><summary id="revealHead"></summary>',
    '<ul id="best" class="split"></ul>',
    '<p id="revealLegend" class="small">Each line: counters placed \u2192 points won, and why.</p>',
    '<ul id="revealRows" class="rows"></ul>',
    '<div id="revealStand" hidden><h3>Standings</h3><ol id="revealStandings" class="standings"></ol></div>',
    '</details>',
    '<div id="sheet" class="card"><h2 id="sheetHead">Your record sheet</h2>',
    '<div class="scroll"><table class="sheet"><thead><tr><th scope="col">Round</th>',
    '<th scope="col">Beacon</th><th scope="col">Grove</th><th scope="col">Mooring</th>',
    '<th scope="col">Round points</th><th scope="col">Running total</th></tr></thead>',
    '<tbody id="sheetRows"></tbody></table></div>',
    '<div class="row noprint"><button id="csv" class="ghost" type="button">Save record (CSV)</button>',
    '<button id="print" class="ghost" type="button">Print</button></div></div>'
  ].join('');

  // How to play, with the worked example (the box's frame shows it in every view once the reader
  // has chosen Token Tide).
  var RULES = [
    '<p>Each round a tide card sets the <b>Mooring target</b> (2, 3 or 4). Everybody secretly splits',
    ' exactly <b>seven counters</b> over three islands. Zero is allowed; all seven must be placed.',
    ' Tap <b>Ready</b> when done; you can change your mind until the reveal.</p>',
    '<ul><li><b>Beacon</b>: the largest delivery earns 6. Tied largest: 2 each.</li>',
    '<li><b>Grove</b>: the smallest delivery above zero earns 4. Tied smallest: 1 each. Zero never scores.</li>',
    '<li><b>Mooring</b>: exactly the target earns 3; one below or above earns 1. Everyone can score here.</li></ul>',
    '<p>An island nobody supplied pays nobody. Six rounds (four in the short crossing): the highest',
    ' total wins, and tied leaders share the victory. The reader job moves one seat clockwise each',
    ' round; the reader plays normally.</p>',
    '<h3>Worked example: target 3</h3>',
    '<div class="scroll"><table class="ex"><thead><tr><th scope="col">Player</th><th scope="col">Beacon</th>',
    '<th scope="col">Grove</th><th scope="col">Mooring</th><th scope="col">Points</th></tr></thead><tbody>',
    '<tr><th scope="row">Ada</th><td>4 \u2192 6</td><td>1 \u2192 1</td><td>2 \u2192 1</td><td>8</td></tr>',
    '<tr><th scope="row">Bo</th><td>3 \u2192 0</td><td>1 \u2192 1</td><td>3 \u2192 3</td><td>4</td></tr>',
    '<tr><th scope="row">Cy</th><td>1 \u2192 0</td><td>3 \u2192 0</td><td>3 \u2192 3</td><td>3</td></tr>',
    '</tbody></table></div>',
    '<p class="small">Ada alone has the largest Beacon delivery (4): 6. Ada and Bo tie for Grove\'s',
    ' smallest positive delivery (1): 1 each; Cy\'s 3 earns nothing there. At Mooring Ada is one below',
    ' the target: 1; Bo and Cy are exact: 3 each. Round totals: Ada 8, Bo 4, Cy 3.</p>'
  ].join('');

  var node = null; // this game's part of the page, built at its first render and kept
  var E = {}; // its elements by id (found also while the part is not in the page)
  function $(id) { return E[id]; }
  function show(id, on) { E[id].hidden = !on; }
  function setText(id, text) {
    var e = E[id];
    text = text == null ? '' : String(text);
    if (e.textContent !== text) e.textContent = text;
  }

  var S = null; // the state last drawn
  var arrived = 0; // when it arrived (the countdown runs from here)
  var draft = [0, 0, 0];
  var draftKey = '';
  var sending = false;
  var shownPhase = '';

  function render(s, root) {
    if (!node) build();
    if (root.firstChild !== node || root.childNodes.length !== 1) fill(root, [node]);
    if (s !== S) {
      S = s;
      arrived = Date.now();
    }
    renderGame(s.game, revealStep(s));
    tick();
  }

  function roundName(round, rounds) {
    return round < 0 ? 'Practice round (not scored)' : 'Round ' + (round + 1) + (rounds ? ' of ' + rounds : '');
  }

  // How far the box's reveal of the latest round has gone (everything once the round is over).
  function revealStep(s) {
    var g = s.game;
    if (!g || g.phase !== 'revealed' || !g.last) return LAST_STEP;
    var r = s.shown && s.shown.reveal;
    return r && r.round === g.last.round && typeof r.step === 'number' ? Math.min(r.step, LAST_STEP) : 0;
  }

  function renderGame(g, step) {
    var me = typeof g.you === 'number' ? g.you : -1;
    var players = g.players;
    var phase = g.phase;
    var over = phase === 'over';
    var seated = me >= 0 && players[me] && players[me].seated;
    var allocating = phase === 'allocate' && seated;
    var reader = players[g.reader];

    // the tide
    show('tide', !!g.card && !over);
    if (g.card) {
      setText('roundLabel', roundName(g.round, g.rounds));
      setText('cardName', g.card[1]);
      var t = g.card[2];
      setText('target', t);
      // counters and points never in one number: "the target, 3 counters: 3 points; ..."
      setText('h2', 'the target, ' + counters(t) + ': 3 points; ' + (t - 1) + ' or ' + (t + 1) + ' counters: 1 point');
    }
    setText('readerLine', over || !reader ? '' : 'Reader: ' + reader.name + (g.reader === me ? ' (you)' : ''));

    // the one line a player needs at a glance
    var waiting = [];
    players.forEach(function (p, i) { if (p.seated && !p.ready && i !== me) waiting.push(p.name); });
    var status;
    if (over) {
      var won = g.winners.indexOf(me) >= 0;
      status = 'Game over. ' + (won ? (g.winners.length > 1 ? 'You share the victory!' : 'You win!') : '');
    } else if (phase === 'revealed') {
      var mine = g.last && g.last.rows[me];
      var practice = g.last.round < 0;
      if (step < 4) {
        status = 'The box reveals the round step by step: now ' + STEP_WHAT[step] + '.';
      } else if (step < LAST_STEP) {
        status = (mine ? 'You scored ' + mine.points + (practice ? ' (practice).' : '.') : 'The round\u2019s points.') +
          ' The standings come next on the box.';
      } else {
        status = (mine ? 'You scored ' + mine.points + (practice ? ' (practice).' : ', total ' + players[me].total + '.')
          : 'Revealed.') + (g.last.round === g.rounds - 1
          ? ' That was the last round: the reader shows the final standings on the box next.'
          : ' The reader turns the next card on the box.');
      }
    } else if (me < 0) {
      status = 'You are watching this game.';
    } else if (!seated) {
      status = 'You have left this game.';
    } else if (g.locked) {
      status = waiting.length ? 'You are ready. Waiting for ' + list(waiting) + '.'
        : 'Everybody is ready: the reader reveals on the box.';
    } else {
      status = 'Place all 7 counters, then tap Ready.';
    }
    setText('status', status);

    // allocating
    if (allocating) {
      var key = g.round + '/' + (g.card ? g.card[0] : '') + '/' + me;
      if (g.locked && g.mine) {
        draft = g.mine.slice();
        draftKey = key;
        saveDraft();
      } else if (key !== draftKey) {
        draftKey = key;
        draft = loadDraft(key) || (g.mine ? g.mine.slice() : [0, 0, 0]);
      }
    }
    if (phase !== 'allocate') clearDraft(); // the next round starts from an empty draft
    show('alloc', allocating && !g.locked);
    show('locked', allocating && !!g.locked);
    if (allocating && !g.locked) renderAlloc();
    if (allocating && g.locked) {
      fill($('lockedList'), ISLANDS.map(function (name, i) {
        var li = el('li', null, name);
        li.appendChild(el('b', null, g.mine ? g.mine[i] : '?'));
        return li;
      }));
    }

    // who is ready (names only)
    show('readyBox', phase === 'allocate');
    if (phase === 'allocate') {
      var ready = players.filter(function (p) { return p.seated && p.ready; }).length;
      var count = players.filter(function (p) { return p.seated; }).length;
      setText('readyHead', 'Who is ready: ' + ready + ' of ' + count);
      fill($('readyList'), players.map(function (p, i) {
        var li = el('li');
        li.appendChild(el('span', null, p.name + (i === me ? ' (you)' : '')));
        li.appendChild(el('span', 'tag', !p.seated ? 'left' : p.ready ? '\u2713 ready' : 'thinking\u2026'));
        return li;
      }));
    }

    renderFinal(g, me, over);
    renderReveal(g, me, phase, step);
    renderSheet(g, me, step);
  }

  function renderAlloc() {
    var sum = draft[0] + draft[1] + draft[2];
    var left = COUNTERS - sum;
    for (var i = 0; i < 3; i++) {
      var input = $('i' + i);
      if (document.activeElement !== input && input.value !== String(draft[i])) input.value = draft[i];
    }
    var buttons = $('alloc').querySelectorAll('button[data-i]');
    for (var j = 0; j < buttons.length; j++) {
      var b = buttons[j];
      var at = draft[+b.getAttribute('data-i')];
      b.disabled = b.getAttribute('data-d') === '1' ? left <= 0 : at <= 0;
    }
    setText('left', left >= 0
      ? left + ' of 7 left' + (left === 0 ? ': all placed' : '')
      : -left + ' too many: ' + sum + ' placed, take ' + -left + ' away');
    $('ready').disabled = left !== 0 || sending;
  }

  // The draft lives in storage (reloads, a locked screen) until the allocation phase ends, and goes
  // whenever the phone is back in the lobby (a new game must not start from an old game's draft).
  function clearDraft() {
    draftKey = '';
    if (node) {
      setText('allocErr', '');
      setText('lockErr', '');
    }
    if (T.load(DRAFT_KEY) != null) T.store(DRAFT_KEY, null);
  }
  function saveDraft() {
    T.store(DRAFT_KEY, JSON.stringify({ k: draftKey, a: draft }));
  }
  function loadDraft(key) {
    try {
      var d = JSON.parse(T.load(DRAFT_KEY));
      if (d && d.k === key && d.a && d.a.length === 3) return d.a.map(clamp);
    } catch (e) { /* no draft */ }
    return null;
  }
  function clamp(n) {
    n = parseInt(n, 10);
    return isNaN(n) || n < 0 ? 0 : n > COUNTERS ? COUNTERS : n;
  }

  function renderFinal(g, me, over) {
    show('final', over);
    if (!over) return;
    var players = g.players;
    var best = g.winners.length ? players[g.winners[0]].total : 0;
    var names = g.winners.map(function (i) { return players[i].name; });
    setText('winners', names.length > 1
      ? 'Winners, sharing the victory: ' + list(names) + ' with ' + pts(best)
      : names.length ? 'Winner: ' + names[0] + ' with ' + pts(best) : '');
    fill($('standings'), standings(g, me));
  }

  // The box ranks: tied players share a rank.
  function standings(g, me) {
    return g.standings.map(function (st) {
      var p = g.players[st.seat];
      var text = st.rank + '. ' + p.name + (st.seat === me ? ' (you)' : '') + ': ' + pts(st.total);
      if (g.winners.indexOf(st.seat) >= 0) text += ', winner';
      return el('li', null, text);
    });
  }

  // Only what the box has shown (`step`): the winning amounts, then each island's awards, then the
  // round's points, then the standings; after the box's last step, the whole breakdown.
  function renderReveal(g, me, phase, step) {
    var last = g.last;
    var box = $('reveal');
    show('reveal', !!last);
    if (!last) return;
    var label = last.round < 0 ? roundName(-1) + ', target ' + last.target
      : roundName(last.round) + ': ' + (CARDS[last.card] || last.card) + ', target ' + last.target;
    var key = phase + '/' + g.round;
    if (key !== shownPhase) {
      shownPhase = key;
      box.open = phase === 'revealed';
    }
    setText('revealHead', (phase === 'revealed' ? '' : 'Last reveal: ') + label);
    fill($('best'), [
      ['Beacon', last.beacon_best, 'largest'],
      ['Grove', last.grove_best, 'smallest above 0'],
      ['Mooring', last.target, 'target']
    ].map(function (b) {
      var li = el('li', null, b[0]);
      li.appendChild(el('b', null, b[1] || 'none'));
      li.appendChild(el('small', null, b[2]));
      return li;
    }));
    show('revealLegend', step > 0);
    show('revealRows', step > 0);
    show('revealStand', phase === 'revealed' && step >= LAST_STEP);
    if (phase === 'revealed' && step >= LAST_STEP) fill($('revealStandings'), standings(g, me));
    var islands = step > 3 ? 3 : step; // Beacon at step 1, Grove at 2, Mooring at 3
    fill($('revealRows'), step > 0 ? last.rows.map(function (row) {
      var li = el('li', row.seat === me ? 'you' : '');
      var head = el('div', 'rh');
      head.appendChild(el('span', null, row.name + (row.seat === me ? ' (you)' : '')));
      var total = g.players[row.seat] ? g.players[row.seat].total : 0;
      if (step >= 4) {
        head.appendChild(el('span', 'pts', last.round < 0 ? pts(row.points) + ' (practice)'
          : '+' + pts(row.points) + (step >= LAST_STEP ? ', total ' + total : '')));
      }
      li.appendChild(head);
      if (!row.allocation) {
        li.appendChild(el('p', 'small', 'Left the game: no allocation.'));
        return li;
      }
      var table = el('table', 'aw');
      var body = el('tbody');
      ISLANDS.slice(0, islands).forEach(function (name, k) {
        var tr = el('tr');
        tr.appendChild(el('th', null, name));
        tr.appendChild(el('td', 'n', counters(row.allocation[k]) + ' \u2192 ' + pts(row.scores[k])));
        tr.appendChild(el('td', null, row.reasons[k] || 'no award'));
        body.appendChild(tr);
      });
      table.appendChild(body);
      li.appendChild(table);
      return li;
    }) : []);
  }

  // The printed record sheet: Round | Beacon | Grove | Mooring | Round points | Running total.
  var sheet = [];
  function renderSheet(g, me, step) {
    show('sheet', me >= 0);
    if (me < 0) return;
    var running = 0;
    var byRound = {};
    g.history.forEach(function (h) { byRound[h.round] = h; });
    // the round being revealed keeps this player's own numbers; its points join the sheet once the
    // box has shown them
    var revealing = g.phase === 'revealed' && step < 4 && g.last ? g.last.round : null;
    sheet = [];
    var rows = [];
    for (var r = 0; r < g.rounds; r++) {
      var h = byRound[r];
      var cells = [String(r + 1), '', '', '', '', ''];
      var tr = el('tr');
      var a = h && h.allocations[me];
      if (h && r === revealing) {
        cells = [r + 1, a ? a[0] : '-', a ? a[1] : '-', a ? a[2] : '-', '', ''].map(String);
        tr.className = 'now';
      } else if (h) {
        var sc = h.scores[me];
        var got = sc ? sc[0] + sc[1] + sc[2] : 0;
        running += got;
        cells = [r + 1, a ? a[0] : '-', a ? a[1] : '-', a ? a[2] : '-', got, running].map(String);
        sheet.push(cells);
      } else if (r === g.round && g.phase === 'allocate' && g.mine) {
        // the current row holds this player's own (still hidden) numbers, as on paper
        cells = [String(r + 1), g.mine[0], g.mine[1], g.mine[2], '', ''];
        tr.className = 'now';
      }
      cells.forEach(function (c, k) { tr.appendChild(el(k ? 'td' : 'th', null, c)); });
      tr.firstChild.setAttribute('scope', 'row');
      rows.push(tr);
    }
    fill($('sheetRows'), rows);
    setText('sheetHead', 'Record sheet: ' + g.players[me].name);
  }

  // ---------------------------------------------------------------- the countdown
  // Computed here from left_ms at the moment the state arrived; it paces, it never forces.
  // [the time left, its note, the bar's width] of the box's timer `t` as it was `since` ms ago.
  function clock(t, since) {
    var left = t.left_ms - (t.running ? since : 0);
    if (left < 0) left = 0;
    var up = t.expired || left <= 0;
    var secs = Math.ceil(left / 1000);
    return [up ? '0:00' : Math.floor(secs / 60) + ':' + ('0' + (secs % 60)).slice(-2),
      up ? 'time is up' : t.running ? 'left' : 'paused',
      (t.total_ms > 0 ? Math.min(100, (100 * left) / t.total_ms) : 0) + '%'];
  }
  // The countdown shows only while the players allocate.
  function timing(s) {
    var t = s && s.timer;
    return t && t.on && s.game && s.game.phase === 'allocate' ? t : null;
  }
  function tick() {
    if (!node) return;
    var t = timing(S);
    show('timerBox', !!t);
    if (!t) return;
    var c = clock(t, Date.now() - arrived);
    setText('timer', c[0]);
    setText('timerNote', c[1]);
    $('timerBar').style.width = c[2];
  }
  setInterval(function () { tick(); tvTick(); }, 250);

  // ---------------------------------------------------------------- the controls
  function build() {
    node = el('div');
    node.id = 'game';
    node.innerHTML = MARKUP; // this file's constants only
    var all = node.querySelectorAll('[id]');
    for (var k = 0; k < all.length; k++) E[all[k].id] = all[k];

    $('alloc').addEventListener('click', function (e) {
      var b = e.target.closest && e.target.closest('button[data-i]');
      if (!b || b.disabled) return;
      var i = +b.getAttribute('data-i');
      draft[i] = clamp(draft[i] + +b.getAttribute('data-d'));
      setText('allocErr', '');
      saveDraft();
      renderAlloc();
    });
    [0, 1, 2].forEach(function (i) {
      var input = $('i' + i);
      input.addEventListener('input', function () {
        // A field holds one digit. WebKit (Safari on iPhones) keeps the caret where the tap put it
        // instead of selecting the old digit on focus, so a digit typed lands next to it ("60" for
        // a 6 typed over 0): keep the digit typed.
        var typed = input.value;
        var old = String(draft[i]);
        if (typed.length > 1 && typed.indexOf(old) >= 0) typed = typed.replace(old, '');
        draft[i] = clamp(typed);
        if (input.value !== '' && input.value !== String(draft[i])) input.value = draft[i];
        saveDraft();
        renderAlloc();
      });
      input.addEventListener('change', function () { input.value = draft[i]; });
      input.addEventListener('blur', function () { input.value = draft[i]; });
      input.addEventListener('focus', function () { input.select(); });
    });

    $('alloc').addEventListener('submit', function (e) {
      e.preventDefault();
      if (sending || draft[0] + draft[1] + draft[2] !== COUNTERS) return;
      sending = true;
      setText('allocErr', '');
      renderAlloc();
      T.move('allocate', { allocation: draft.slice(), ready: true }).then(function (r) {
        sending = false;
        setText('allocErr', r.say);
        renderAlloc();
      });
    });

    $('change').addEventListener('click', function () {
      var b = $('change');
      b.disabled = true;
      setText('lockErr', '');
      T.move('unready', {}).then(function (r) {
        b.disabled = false;
        setText('lockErr', r.say);
      });
    });

    $('csv').addEventListener('click', function () {
      var lines = [['Round', 'Beacon', 'Grove', 'Mooring', 'Round points', 'Running total']].concat(sheet);
      var name = S && S.you ? S.you.name.replace(/[^A-Za-z0-9_-]+/g, '_') : '';
      T.saveCsv('token-tide' + (name ? '-' + name : '') + '.csv', lines);
    });
    $('print').addEventListener('click', function () { window.print(); });
  }

  function openForPrint() { if (node) $('reveal').open = true; }
  window.addEventListener('beforeprint', openForPrint);
  // Safari before 13 has no beforeprint: the print media query says it instead
  var printing = window.matchMedia ? window.matchMedia('print') : null;
  if (printing && printing.addListener) printing.addListener(function (m) { if (m.matches) openForPrint(); });

  // ---------------------------------------------------------------- the table screen
  // The big screen (/table) follows the box seatless: its view holds only what is public (who is
  // locked in, never what). It shows the tide card, the countdown, who is ready, the reveal exactly
  // as far as the box has gone, and the standings, ranked. Built once; its texts change.
  var V = null; // the table view's elements by name
  var TS = null; // the view last drawn there
  var tvArrived = 0;
  function tvBuild() {
    V = {};
    function add(parent, tag, cls, name, text) {
      var e = el(tag, cls, text);
      if (parent) parent.appendChild(e);
      if (name) V[name] = e;
      return e;
    }
    var top = add(null, 'div', 'tv-tt', 'node');
    var head = add(top, 'div', 'tt-head');
    var card = add(head, 'div', 'tt-card');
    var line = add(card, 'div');
    add(line, 'p', 'tt-round', 'round');
    add(line, 'p', 'tt-reader', 'reader');
    line = add(card, 'div');
    add(line, 'h1', 'tt-name', 'name');
    var target = add(line, 'p', 'tt-target', 'targetLine', 'Mooring target ');
    add(target, 'b', null, 'target');
    var clk = add(head, 'div', 'tt-clock', 'clock');
    add(clk, 'span', 'tt-time', 'time').setAttribute('role', 'timer');
    add(clk, 'span', 'tt-note', 'note');
    add(add(clk, 'span', 'tt-meter'), 'i', null, 'bar');
    var body = add(top, 'div', 'tt-body');
    var main = add(body, 'div', 'tt-main');
    add(main, 'p', 'tt-status', 'status').setAttribute('role', 'status');
    var ready = add(main, 'div', 'tt-ready', 'ready');
    add(ready, 'h2', null, 'readyHead');
    add(ready, 'ul', 'tt-names', 'readyList');
    var rev = add(main, 'div', 'tt-reveal', 'reveal');
    add(rev, 'ul', 'tt-best', 'best');
    add(rev, 'table', 'tt-rows', 'rows');
    var fin = add(main, 'div', 'tt-final', 'final');
    add(fin, 'p', 'tt-win', 'winners');
    add(fin, 'ol', 'tt-stand', 'finalList');
    var side = add(body, 'div', 'tt-side', 'side');
    add(side, 'h2', null, null, 'Standings');
    add(side, 'p', 'tt-after', 'after');
    add(side, 'ol', 'tt-stand', 'stand');
  }
  function tvText(name, text) {
    text = text == null ? '' : String(text);
    if (V[name].textContent !== text) V[name].textContent = text;
  }
  function tvShow(name, on) { V[name].hidden = !on; }

  // Ranked as the box ranks (tied totals share a rank, ties keep seat order): [[rank, seat, total]].
  function ranked(totals) {
    var order = totals.map(function (t, i) { return i; }).sort(function (a, b) {
      return totals[b] - totals[a] || a - b;
    });
    var rows = [];
    order.forEach(function (seat, k) {
      var prev = rows[k - 1];
      rows.push([prev && prev[2] === totals[seat] ? prev[0] : k + 1, seat, totals[seat]]);
    });
    return rows;
  }

  function table(s, root) {
    if (!V) tvBuild();
    if (root.firstChild !== V.node || root.childNodes.length !== 1) fill(root, [V.node]);
    if (s !== TS) {
      TS = s;
      tvArrived = Date.now();
    }
    var g = s.game;
    if (!g) return;
    var step = revealStep(s);
    var players = g.players;
    var phase = g.phase;
    var over = phase === 'over';
    var last = g.last;
    var reader = players[g.reader];

    // the tide card and the round
    tvShow('targetLine', !!g.card && !over);
    tvText('round', over ? 'Game over' : g.card ? roundName(g.round, g.rounds) : '');
    tvText('name', over ? 'Final standings' : g.card ? g.card[1] : '');
    tvText('target', g.card ? g.card[2] : '');

    // the one line the table needs
    var waiting = [];
    players.forEach(function (p) { if (p.seated && !p.ready) waiting.push(p.name); });
    var status = '';
    if (over) {
      status = '';
    } else if (phase === 'revealed') {
      status = step < 4 ? 'Now: ' + STEP_WHAT[step] + '.'
        : step < LAST_STEP ? 'The round\u2019s points; the standings come next.'
          : last.round === g.rounds - 1 ? 'That was the last round: the final standings come next on the box.'
            : 'The reader turns the next card on the box.';
    } else {
      status = !waiting.length ? 'Everybody is ready: the reader reveals on the box.'
        : 'Waiting for ' + (waiting.length > 3 ? waiting.length + ' players' : list(waiting)) + '.';
    }
    tvShow('status', !over);
    tvText('status', status);
    tvText('reader', reader && !over ? 'Reader: ' + reader.name : '');

    // who is ready (names only: what they placed stays on their phones)
    tvShow('ready', phase === 'allocate');
    if (phase === 'allocate') {
      var count = players.filter(function (p) { return p.seated; }).length;
      tvText('readyHead', 'Who is ready: ' + (count - waiting.length) + ' of ' + count);
      fill(V.readyList, players.map(function (p) {
        var li = el('li', p.seated && p.ready ? 'on' : '', p.name);
        li.appendChild(el('span', 'tag', !p.seated ? 'left' : p.ready ? '\u2713 ready' : 'thinking\u2026'));
        return li;
      }));
    }

    // the reveal, only as far as the box has gone
    var revealing = phase === 'revealed' && !!last;
    tvShow('reveal', revealing);
    if (revealing) tvReveal(g, last, step);

    // the final standings
    tvShow('final', over);
    if (over) {
      var best = g.winners.length ? players[g.winners[0]].total : 0;
      var won = g.winners.map(function (i) { return players[i].name; });
      tvText('winners', won.length > 1 ? 'Winners, sharing the victory: ' + list(won) + ' with ' + pts(best)
        : won.length ? 'Winner: ' + won[0] + ' with ' + pts(best) : '');
      fill(V.finalList, standings(g, -1));
    }

    // the running totals: a round being revealed joins them at the box's last step
    tvShow('side', !over);
    var totals = players.map(function (p) { return p.total; });
    var hold = revealing && last.round >= 0 && step < LAST_STEP;
    if (hold) {
      last.rows.forEach(function (row) { totals[row.seat] -= row.points; });
    }
    var done = g.history.length - (hold ? 1 : 0);
    tvText('after', done ? 'after ' + (done === 1 ? 'round 1' : done + ' rounds') : 'before round 1');
    fill(V.stand, ranked(totals).map(function (r) {
      var p = players[r[1]];
      var li = el('li', p.seated ? '' : 'left');
      li.appendChild(el('span', 'rk', r[0] + '.'));
      li.appendChild(el('span', 'nm', p.name + (p.seated ? '' : ' (left)')));
      li.appendChild(el('b', null, r[2]));
      return li;
    }));
    tvTick();
  }

  function tvReveal(g, last, step) {
    fill(V.best, [
      ['Beacon', last.beacon_best, 'largest'],
      ['Grove', last.grove_best, 'smallest above 0'],
      ['Mooring', last.target, 'target']
    ].map(function (b) {
      var li = el('li', null, b[0] + ' ');
      li.appendChild(el('b', null, b[1] || 'none'));
      li.appendChild(el('small', null, ' ' + b[2]));
      return li;
    }));
    tvShow('rows', step > 0);
    V.rows.className = 'tt-rows' + (last.rows.length < 5 ? ' few' : '');
    var islands = step > 3 ? 3 : step; // Beacon at step 1, Grove at 2, Mooring at 3
    var rows = [];
    if (step > 0) {
      var tr = el('tr');
      ['Player'].concat(ISLANDS.slice(0, islands), step >= 4 ? ['Round'] : []).forEach(function (h) {
        tr.appendChild(el('th', null, h));
      });
      rows.push(tr);
      last.rows.forEach(function (row) {
        var r = el('tr');
        r.appendChild(el('th', null, row.name));
        ISLANDS.slice(0, islands).forEach(function (name, k) {
          var td = el('td', row.allocation && row.scores[k] ? 'won' : '');
          if (row.allocation) {
            td.appendChild(el('span', null, counters(row.allocation[k])));
            td.appendChild(el('span', null, ' \u2192 ' + pts(row.scores[k])));
            td.appendChild(el('small', null, row.reasons[k] || 'no award'));
          } else {
            td.textContent = k ? '' : 'left the game';
          }
          r.appendChild(td);
        });
        if (step >= 4) {
          r.appendChild(el('td', 'pt', (last.round < 0 ? '' : '+') + pts(row.points) + (last.round < 0 ? ' (practice)' : '')));
        }
        rows.push(r);
      });
    }
    fill(V.rows, rows);
  }

  function tvTick() {
    if (!V) return;
    var t = timing(TS);
    tvShow('clock', !!t);
    if (!t) return;
    var c = clock(t, Date.now() - tvArrived);
    tvText('time', c[0]);
    tvText('note', c[1]);
    V.bar.style.width = c[2];
  }

  T.games.token_tide = {
    title: 'Token Tide', render: render, table: table, lobby: clearDraft,
    how: function (box) { box.insertAdjacentHTML('beforeend', RULES); }
  };
})();
