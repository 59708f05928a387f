// Token Tide phone page: takes a seat, follows the box's state, sends this player's allocation.
// It talks only to the box that served it, one request at a time (a Pico W has 5 TCP connections
// for up to 8 phones). Player text is always set as text, never as markup.
(function () {
  'use strict';
  function pts(n) { return n + (n === 1 ? ' point' : ' points'); }
  function counters(n) { return n + (n === 1 ? ' counter' : ' counters'); }

  var ISLANDS = ['Beacon', 'Grove', 'Mooring'];
  var COUNTERS = 7;
  var CARDS = {
    P00: 'Practice', T01: 'Low Water', T02: 'Middle Water', T03: 'High Water',
    T04: 'Shallow Channel', T05: 'Full Channel', T06: 'Turning Water'
  };
  var TOKEN_KEY = 'tidebox.token';
  var DRAFT_KEY = 'tidebox.draft';
  var POLL_MS = 1000; // about once a second while the page is visible
  var HIDDEN_MS = 5000; // a phone in a pocket asks less often
  var TIMEOUT_MS = 6000; // a request the box never answers counts as an error
  // The box's stepped reveal: the winning amounts, Beacon, Grove, Mooring, the round's points, the
  // standings. The phones show as far as the box has gone (its view's shown.reveal), never further.
  var LAST_STEP = 5;
  var STEP_WHAT = ['the winning amounts', 'who scores on Beacon', 'who scores on Grove',
    'who scores on Mooring', 'the round\u2019s points'];

  function $(id) { return document.getElementById(id); }
  // The other games' parts of the page register here (see the end of this file and games/*/page.js).
  var GAMES = {};
  function now() { return Date.now(); }

  // ---------------------------------------------------------------- storage
  // localStorage keeps the seat across reloads, lost Wi-Fi and a locked screen. Where it is not
  // available (some private modes), the seat lasts as long as the page.
  var mem = {};
  function load(key) {
    try { return localStorage.getItem(key); } catch (e) { return key in mem ? mem[key] : null; }
  }
  function store(key, value) {
    if (value == null) delete mem[key]; else mem[key] = value;
    try {
      if (value == null) localStorage.removeItem(key); else localStorage.setItem(key, value);
    } catch (e) { /* memory only */ }
  }

  // ---------------------------------------------------------------- DOM helpers
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = String(text);
    return e;
  }
  function fill(parent, kids) {
    parent.textContent = '';
    kids.forEach(function (k) { parent.appendChild(k); });
  }
  function show(id, on) { $(id).hidden = !on; }
  function setText(id, text) {
    var e = $(id);
    text = text == null ? '' : String(text);
    if (e.textContent !== text) e.textContent = text;
  }
  function list(names) {
    if (names.length < 2) return names.join('');
    return names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
  }

  // ---------------------------------------------------------------- talking to the box
  var token = load(TOKEN_KEY);
  var S = null; // the last full state
  var ver = null; // its version; null asks for a full state
  var arrived = 0; // when S arrived (the countdown runs from here)
  var queue = [];
  var busy = false;

  // Every request goes through one queue: never two at once.
  function api(method, path, body) {
    return new Promise(function (resolve) {
      queue.push([method, path, body, resolve]);
      pump();
    });
  }
  function pump() {
    if (busy || !queue.length) return;
    busy = true;
    var job = queue.shift();
    send(job[0], job[1], job[2]).then(function (r) {
      busy = false;
      job[3](r);
      // The next request goes out after this answer's handlers have run (a join's token is then
      // stored before the poll queued behind it is sent).
      setTimeout(pump, 0);
    });
  }
  // Resolves {status, data, token}; status 0 means the box could not be reached; token is the
  // seat token the request was sent with.
  function send(method, path, body) {
    var sent = token;
    var ctl = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctl) ctl.abort(); }, TIMEOUT_MS);
    var headers = {};
    var opts = { method: method, headers: headers, cache: 'no-store' };
    if (token) headers['X-Seat-Token'] = token;
    if (ctl) opts.signal = ctl.signal;
    if (body) {
      headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { /* not JSON */ }
        return { status: res.status, data: data && typeof data === 'object' ? data : {} };
      });
    }).catch(function () {
      return { status: 0, data: {} };
    }).then(function (r) {
      clearTimeout(timer);
      r.token = sent;
      return r;
    });
  }

  var polling = false;
  var again = false;
  var pollTimer = 0;
  var fails = 0;

  function poll() {
    clearTimeout(pollTimer);
    if (polling) return;
    polling = true;
    api('GET', '/api/state' + (S && ver != null ? '?v=' + ver : '')).then(function (r) {
      var d = r.data;
      var next = POLL_MS;
      polling = false;
      if (r.status === 200 && typeof d.v === 'number' && r.token !== token) {
        ver = null; // asked as another seat (the token changed meanwhile): ask again as this one
        next = 0;
      } else if (r.status === 200 && typeof d.v === 'number') {
        fails = 0;
        show('net', false);
        if ('box' in d) {
          S = d;
          ver = d.v;
          arrived = now();
          render();
        } else if (!S || d.v !== ver) {
          ver = null; // "unchanged" about a state we do not have: ask for all of it
          next = 0;
        }
      } else {
        fails += 1;
        if (fails > 1) show('net', true);
        next = fails < 3 ? 3000 : 5000;
      }
      if (again) {
        again = false;
        next = 0;
      }
      if (document.hidden) next = Math.max(next, HIDDEN_MS);
      pollTimer = setTimeout(poll, next);
    });
  }
  // Something changed on our side: fetch the whole state as soon as possible.
  function refresh() {
    ver = null;
    if (polling) again = true; else poll();
  }
  function wake() {
    if (!document.hidden) poll();
  }
  window.addEventListener('focus', wake);
  window.addEventListener('online', wake);
  window.addEventListener('pageshow', wake);
  document.addEventListener('visibilitychange', wake);

  function failure(r) {
    if (r.data.error) return r.data.error;
    if (!r.status) return 'No answer from the box. Are you on its Wi-Fi? Try again.';
    return 'The box refused (' + r.status + '). Try again.';
  }

  // ---------------------------------------------------------------- joining
  function enter(path, body, button, err) {
    $(button).disabled = true;
    setText(err, '');
    api('POST', path, body).then(function (r) {
      $(button).disabled = false;
      if (r.status === 200 && r.data.token) {
        token = String(r.data.token);
        store(TOKEN_KEY, token);
        refresh();
      } else {
        setText(err, failure(r));
      }
    });
  }
  $('joinForm').addEventListener('submit', function (e) {
    e.preventDefault();
    var name = $('name').value.trim();
    if (!name) setText('joinErr', 'Type your name first.');
    else enter('/api/join', { name: name }, 'joinBtn', 'joinErr');
  });
  $('rejoinForm').addEventListener('submit', function (e) {
    e.preventDefault();
    var code = $('code').value.replace(/\D/g, '');
    if (!code) setText('rejoinErr', 'Type the code the box shows.');
    else enter('/api/rejoin', { code: code }, 'rejoinBtn', 'rejoinErr');
  });

  // ---------------------------------------------------------------- rendering
  function render() {
    var s = S;
    var g = s.game;
    var view = !s.you ? 'join' : g && (s.box === 'play' || s.box === 'over') ? 'game' : 'lobby';
    // Every other game draws itself from its own part of the page (games/<game>/page.js).
    var part = view === 'game' && s.kind !== 'token_tide' ? GAMES[s.kind] : null;
    setText('me', s.you ? 'You: ' + s.you.name : '');
    setText('brand', s.kind === 'token_tide' ? 'Token Tide' : GAMES[s.kind] ? GAMES[s.kind].title : 'Tidebox');
    show('join', view === 'join');
    show('lobby', view === 'lobby');
    show('game', view === 'game' && !part);
    show('other', !!part);
    show('rules', !s.kind || s.kind === 'token_tide');
    if (view === 'join') renderJoin(s);
    else if (view === 'lobby') renderLobby(s);
    else if (part) {
      part.render(s, $('other'));
      if (part.how) $('other').appendChild(howToPlay(s.kind, part.how));
    }
    else renderGame(g, revealStep(s));
    tick();
  }

  // A game part's "How to play" (its `how`: paragraphs), built once and kept, so it stays open or
  // closed across renders.
  var hows = {};
  function howToPlay(kind, paragraphs) {
    if (!hows[kind]) {
      var d = el('details', 'card');
      d.appendChild(el('summary', 'status', 'How to play'));
      paragraphs.forEach(function (text) { d.appendChild(el('p', 'small', text)); });
      hows[kind] = d;
    }
    return hows[kind];
  }

  function renderJoin(s) {
    var note = '';
    if (token) {
      note = 'The box no longer knows this phone\u2019s seat. Join again, or ask the reader for a rejoin code.';
    } else if (s.box !== 'join') {
      note = 'A game is under way. Playing already? Ask the reader for a rejoin code.';
    }
    setText('joinNote', note);
    show('joinNote', !!note);
  }

  function renderLobby(s) {
    clearDraft();
    var here = s.seats.filter(function (p) { return p.present; }).length;
    var title = s.kind && GAMES[s.kind] ? GAMES[s.kind].title : s.kind === 'token_tide' ? 'Token Tide' : '';
    setText('lobbyMsg', s.box === 'choose' ? 'The reader is choosing the game on the box.'
      : (title ? title + ': ' : '') + (s.box === 'setup'
        ? 'the reader is choosing the options on the box. The game starts soon.'
        : 'the reader starts the game from the box. Others join on the Wi-Fi \u201c' + s.ssid + '\u201d.'));
    setText('seatsHead', 'At the table: ' + here + (here === 1 ? ' player' : ' players'));
    fill($('seats'), s.seats.map(function (p, i) {
      var li = el('li');
      li.appendChild(el('span', null, p.name));
      var tag = i === s.you.seat ? 'you' : p.present ? '' : 'left';
      if (tag) li.appendChild(el('span', 'tag', tag));
      return li;
    }));
  }

  function roundName(round, rounds) {
    return round < 0 ? 'Practice round (not scored)' : 'Round ' + (round + 1) + (rounds ? ' of ' + rounds : '');
  }

  var draft = [0, 0, 0];
  var draftKey = '';
  var sending = false;
  var shownPhase = '';

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

  function clearDraft() {
    draftKey = '';
    setText('allocErr', '');
    setText('lockErr', '');
    if (load(DRAFT_KEY) != null) store(DRAFT_KEY, null);
  }
  function saveDraft() {
    store(DRAFT_KEY, JSON.stringify({ k: draftKey, a: draft }));
  }
  function loadDraft(key) {
    try {
      var d = JSON.parse(load(DRAFT_KEY));
      if (d && d.k === key && d.a && d.a.length === 3) return d.a.map(clamp);
    } catch (e) { /* no draft */ }
    return null;
  }
  function clamp(n) {
    n = parseInt(n, 10);
    return isNaN(n) || n < 0 ? 0 : n > COUNTERS ? COUNTERS : n;
  }

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
    api('POST', '/api/move', { move: 'allocate', args: { allocation: draft.slice(), ready: true } }).then(function (r) {
      sending = false;
      if (r.status !== 200) setText('allocErr', failure(r));
      if (r.status !== 0 && r.status !== 400) refresh();
      renderAlloc();
    });
  });

  $('change').addEventListener('click', function () {
    var b = $('change');
    b.disabled = true;
    setText('lockErr', '');
    api('POST', '/api/move', { move: 'unready', args: {} }).then(function (r) {
      b.disabled = false;
      if (r.status !== 200) setText('lockErr', failure(r));
      if (r.status) refresh();
    });
  });

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
    // the round being revealed joins the sheet once the box has shown the round's points
    if (g.phase === 'revealed' && step < 4 && g.last) delete byRound[g.last.round];
    sheet = [];
    var rows = [];
    for (var r = 0; r < g.rounds; r++) {
      var h = byRound[r];
      var cells = [String(r + 1), '', '', '', '', ''];
      var tr = el('tr');
      if (h) {
        var a = h.allocations[me];
        var sc = h.scores[me];
        var pts = sc ? sc[0] + sc[1] + sc[2] : 0;
        running += pts;
        cells = [r + 1, a ? a[0] : '-', a ? a[1] : '-', a ? a[2] : '-', pts, running].map(String);
      } else if (r === g.round && g.phase === 'allocate' && g.mine) {
        // the current row holds this player's own (still hidden) numbers, as on paper
        cells = [String(r + 1), g.mine[0], g.mine[1], g.mine[2], '', ''];
        tr.className = 'now';
      }
      if (h) sheet.push(cells);
      cells.forEach(function (c, k) { tr.appendChild(el(k ? 'td' : 'th', null, c)); });
      tr.firstChild.setAttribute('scope', 'row');
      rows.push(tr);
    }
    fill($('sheetRows'), rows);
    setText('sheetHead', 'Record sheet: ' + g.players[me].name);
  }

  $('csv').addEventListener('click', function () {
    var lines = [['Round', 'Beacon', 'Grove', 'Mooring', 'Round points', 'Running total']].concat(sheet);
    var text = lines.map(function (l) { return l.join(','); }).join('\r\n') + '\r\n';
    var name = S && S.you ? S.you.name.replace(/[^A-Za-z0-9_-]+/g, '_') : '';
    var a = el('a');
    // Safari asks "Download?" first: the file's address lives until the next save, not a second.
    if (csvUrl) URL.revokeObjectURL(csvUrl);
    a.href = csvUrl = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
    a.download = 'token-tide' + (name ? '-' + name : '') + '.csv';
    if (!('download' in a)) a.target = '_blank'; // an older Safari shows the text instead
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  var csvUrl = '';
  $('print').addEventListener('click', function () { window.print(); });
  function openForPrint() { $('reveal').open = true; }
  window.addEventListener('beforeprint', openForPrint);
  // Safari before 13 has no beforeprint: the print media query says it instead
  var printing = window.matchMedia ? window.matchMedia('print') : null;
  if (printing && printing.addListener) printing.addListener(function (m) { if (m.matches) openForPrint(); });

  // ---------------------------------------------------------------- the countdown
  // Computed here from left_ms at the moment the state arrived; it paces, it never forces.
  function tick() {
    var t = S && S.timer;
    var g = S && S.game;
    var on = !!(t && t.on && g && g.phase === 'allocate');
    show('timerBox', on);
    if (!on) return;
    var left = t.left_ms - (t.running ? now() - arrived : 0);
    if (left < 0) left = 0;
    var up = t.expired || left <= 0;
    var secs = Math.ceil(left / 1000);
    setText('timer', up ? '0:00' : Math.floor(secs / 60) + ':' + ('0' + (secs % 60)).slice(-2));
    setText('timerNote', up ? 'time is up' : t.running ? 'left' : 'paused');
    $('timerBar').style.width = (t.total_ms > 0 ? Math.min(100, (100 * left) / t.total_ms) : 0) + '%';
  }
  setInterval(tick, 250);

  poll();
  // What a game's part of the page may use: one request at a time through the same queue, the
  // helpers that only ever set text (never markup), and a way to ask for the whole state again.
  window.Tidebox = {
    games: GAMES, api: api, refresh: refresh, el: el, fill: fill, setText: setText, show: show,
    pts: pts, list: list, $: $
  };
})();
