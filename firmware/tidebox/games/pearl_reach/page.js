// Pearl Reach on the phones: the tide strip, the coast (five bays, each headed by its pearls and who
// leads it), your move (tap a glowing cell to aim, then Place; tap one of your markers, then a glowing
// neighbour, then Shift), what happened in words with all the last tide did, and the ⋯ menu: Game
// info (every bay's tally, the tides' payouts, the whole log) and New game (the rival speed). Its How to play (`how`) is shown by the shared page's frame, from joining on.
// Markers are told apart by shape and name, never colour alone: the same four shapes as on the box.
(function () {
  'use strict';
  var T = window.Tidebox;
  var el = T.el;
  var SHAPES = ['\u25a0', '\u25a1', '\u00d7', '+'];
  var SHAPE_WORDS = ['filled square', 'hollow square', 'cross', 'plus'];
  var HOW = [
    'Five bays along the coast, three tides. Most points after the third tide wins.',
    'This edition\u2019s numbers: 2-4 gatherers, people and computer rivals. Each bay is a column of 5 cells;' +
      ' row 1 is at the water\u2019s edge. The bays hold 3, 4, 4, 5 and 5 pearls, dealt at random each game.' +
      ' A pearl is worth 1 at the first tide, 2 at the second, 4 at the third. Before each tide every gatherer' +
      ' takes 4 turns (2 gatherers) or 3 turns (3 or 4 gatherers).',
    'Your turn: place a marker on any empty cell. First you may shift one of your markers one cell up, down,' +
      ' or across into the same row of the next bay, onto an empty cell, for 1 shell: once a turn, twice a' +
      ' game. A shift costs 1 shell wherever it ends, and only if you can still place.',
    'Landing next to a rival\u2019s marker (up, down or across) costs 1 shell; anywhere else, also beside your' +
      ' own markers, is free. With no shell when every empty cell costs one, or a full coast, you wait that turn.',
    'Shells: 3 at the start, 2 more after each of the first two tides, and 2 on top for whoever has the' +
      ' fewest points then (everyone tied for fewest).',
    'At each tide every bay pays pearls \u00d7 the tide\u2019s value to whoever has the most markers there;' +
      ' tied leaders split it, rounding down; an empty bay pays nothing. Then the tide carries the marker' +
      ' nearest the water out of every bay that had a marker in it.',
    'After a tide the order is by points: the biggest haul sets out first, the fewest points go last; tied,' +
      ' whoever went later before goes earlier. The third tide ends the game: most points wins, then most' +
      ' shells left; still level, they share the win.',
    'Rivals too quick or too slow? ⋯ → New game → Rival speed (or the reader sets it on the box when' +
      ' setting up). ⋯ → Game info has every bay’s tally and the full log.'
  ];
  // The log comes as small ints (rules.py, "The log keeps one small int per entry"): the kind in the low
  // 4 bits, then 5-bit fields. SAYS is the rules' table of templates (rules.SAYS), word for word.
  var SAYS = [
    '%s sets out first.',
    '%s landed in %s%s.',
    '%s shifted a marker from %s to %s (1 shell).',
    '%s has no shell and every empty cell costs one: %s waits.',
    'The coast is full: %s waits.',
    'The tide carried %s\'s marker out of %s.',
    'Everybody gets 2 shells; %s, with the fewest points, %s 2 more.',
    '%s has the biggest haul and sets out first.',
    'The third tide ends the game: %s %s.',
    '%s left; a rival gathers for that seat now.',
    'Tide %s (a pearl is worth %s): %s.',
    'bay %s was empty',
    'bay %s paid %s %s',
    'bay %s split %s each between %s',
    'bay %s row %s',
    ' (1 shell)',
    ' and ',
    'gets', 'get', 'wins', 'share the win',
    '%s tie for the biggest haul; %s, the latest of them in the last round, sets out first.'
  ];
  var TIDE = 10;
  var RECENT = 5; // What happened's last few entries besides the last tide's
  function fill(t, args) {
    var i = 0;
    return t.replace(/%s/g, function () { return String(args[i++]); });
  }
  function seats(g, mask) {
    return g.names.filter(function (n, i) { return mask >> i & 1; });
  }
  // What each bay paid at a tide (a TIDE log entry), one phrase a bay: "bay 2 paid Ada 8".
  function tideWords(g, e) {
    var value = g.strip.tides[(e & 15) - TIDE].value;
    return g.bays.map(function (bay, b) {
      var got = seats(g, e >> 4 + 5 * b & 31);
      if (!got.length) return fill(SAYS[11], [b + 1]);
      var share = Math.floor(bay.pearls * value / got.length);
      return got.length === 1 ? fill(SAYS[12], [b + 1, got[0], share])
        : fill(SAYS[13], [b + 1, share, got.join(SAYS[16])]);
    });
  }
  // One log entry in words, exactly as rules.entry_text says it.
  function say(g, e) {
    var kind = e & 15, f = [4, 9, 14, 19, 24].map(function (s) { return e >> s & 31; });
    var who = f[0] < g.names.length ? g.names[f[0]] : '', R = g.rows, args;
    function at(c) { return fill(SAYS[14], [Math.floor(c / R) + 1, c % R + 1]); }
    if (kind >= TIDE) {
      var k = kind - TIDE;
      return fill(SAYS[TIDE], [k + 1, g.strip.tides[k].value, tideWords(g, e).join('; ')]);
    }
    if (kind === 1) args = [who, at(f[1]), f[2] ? SAYS[15] : ''];
    else if (kind === 2) args = [who, at(f[1]), at(f[2])];
    else if (kind === 7 && f[1]) return fill(SAYS[21], [seats(g, f[1]).join(SAYS[16]), who]);
    else if (kind === 3) args = [who, who];
    else if (kind === 5) args = [who, at(f[1])];
    else if (kind === 6 || kind === 8) {
      var many = seats(g, f[0]);
      args = [many.join(SAYS[16]), SAYS[(kind === 6 ? 17 : 19) + (many.length > 1 ? 1 : 0)]];
    } else args = [who];
    return fill(SAYS[kind], args);
  }

  var aim = null; // {cell} to place, or {from, to} to shift: waits for the Place or Shift button
  var from = null; // the marker picked for a shift
  var seen = -1; // the move count aim and from belong to
  var err = '';
  var sending = false;
  var open = { menu: false, info: false, fresh: false }; // the ⋯ menu, its Game info and New game
  var asking = false; // "Start a new game" tapped: the phone asks before it sends
  var buzzed = -1;
  var last = null; // [view, root] as last drawn: aiming redraws at once, without asking the box
  var FASTEST = 1, SLOWEST = 4; // the rivals' seconds a move (the rules' speed option: 1, 2 or 4)
  var speed = null; // the speed picked for a new game (null: this game's)

  function redraw() { if (last) render(last[0], last[1]); }
  // Aimed: the Place or Shift button appears under the coast, below the fold on a short phone after a
  // tap on a low cell, so the page scrolls just enough to show it (and Cancel).
  function aimAt(a) {
    aim = a;
    redraw();
    var act = last && last[1].querySelector('.pr-act');
    if (act && act.scrollIntoView) act.scrollIntoView({ block: 'nearest' });
  }

  function who(g, seat) { return g.names[seat] + (g.rivals[seat] ? ' (rival)' : ''); }
  function leadText(g, lead) {
    if (!lead.length) return 'nobody leads';
    return lead.map(function (i) { return g.names[i]; }).join(' and ') + (lead.length > 1 ? ' tie' : ' leads');
  }

  // The coast as the rules keep it: own[cell] is the seat whose marker is there (cell = bay * rows + row).
  function coast(g) {
    var own = [];
    g.bays.forEach(function (b) { b.cells.forEach(function (o) { own.push(o); }); });
    return own;
  }
  function near(c, R) {
    var out = [], row = c % R, n = R * 5;
    if (row > 0) out.push(c - 1);
    if (row < R - 1) out.push(c + 1);
    if (c - R >= 0) out.push(c - R);
    if (c + R < n) out.push(c + R);
    return out;
  }
  function cost(own, me, c, R) {
    return near(c, R).some(function (k) { return own[k] != null && own[k] !== me; }) ? 1 : 0;
  }
  // A shift the rules allow: onto an empty neighbour, a shell in hand, and a cell still affordable after.
  function canShift(g, own, me, f, t) {
    var R = g.rows, shells = g.shells[me] - 1;
    if (own[f] !== me || own[t] != null || near(f, R).indexOf(t) < 0) return false;
    for (var c = 0; c < own.length; c++) {
      if (c === t || (own[c] != null && c !== f)) continue;
      if (shells >= 1 || (c === f ? cost(own, me, f, R) : g.costs[c]) === 0) return true;
    }
    return false;
  }

  function send(s, move, args) {
    sending = true;
    err = '';
    T.move(move, args, s.seq).then(function (r) {
      sending = false;
      aim = from = null;
      err = r.say;
    });
    redraw(); // the buttons disabled until the answer comes
  }

  function button(text, cls, onClick, disabled) {
    var b = el('button', cls, text);
    b.type = 'button';
    b.disabled = !!disabled;
    b.addEventListener('click', onClick);
    return b;
  }

  // Once the game is over any phone may start the next at the same table, choosing how long the
  // rivals visibly take a move (the box's "new_game" move); the reader can also end it on the box.
  // (also from the ⋯ menu during a game, as the rule sheet has it: ⋯ → New game → Rival speed).
  // The phone asks before it sends: a new game is everyone's, and during a game it ends this one.
  function newGame(s, g, over) {
    var card = el('div', 'card pr-new');
    card.appendChild(el('h2', null, 'New game'));
    var pick = speed || g.speed;
    var row = el('div', 'row');
    var rivals = g.rivals.some(function (r) { return r; });
    if (rivals) {
      card.appendChild(el('p', 'small', 'The same table on a new coast. Rival speed, how long the rivals take a move:'));
      for (var v = FASTEST; v <= SLOWEST; v *= 2) row.appendChild(speedButton(v, pick));
      card.appendChild(row);
    } else {
      card.appendChild(el('p', 'small', 'The same table on a new coast.'));
    }
    if (!asking) {
      card.appendChild(button('Start a new game', 'wide', function () { asking = true; redraw(); }, sending));
      return card;
    }
    card.appendChild(el('p', 'status', 'Start a new game for everyone at the table' +
      (over ? '?' : '? This game ends now, unfinished.') + ' The other phones and the box will say you started it.'));
    card.appendChild(button('Yes, start a new game', 'wide', function () {
      asking = false;
      send(s, 'new_game', rivals ? { speed: pick } : {});
    }, sending));
    card.appendChild(button('Cancel', 'ghost', function () { asking = false; redraw(); }, sending));
    return card;
  }

  // The ⋯ menu: Game info (every bay's tally, the tides' payouts, the whole log) and New game.
  function menu() {
    var box = el('div', 'row pr-menu');
    var info = button('Game info', open.info ? '' : 'ghost', function () {
      open.info = !open.info;
      open.menu = false;
      redraw();
      var card = document.querySelector('.pr-info');
      if (card && card.scrollIntoView) card.scrollIntoView();
    });
    info.setAttribute('aria-pressed', open.info ? 'true' : 'false');
    var fresh = button('New game', open.fresh ? '' : 'ghost', function () {
      open.fresh = !open.fresh;
      open.menu = false;
      asking = false;
      redraw();
    });
    fresh.setAttribute('aria-pressed', open.fresh ? 'true' : 'false');
    box.appendChild(info);
    box.appendChild(fresh);
    return box;
  }

  function speedButton(v, pick) {
    var b = button(v + ' s a move', v === pick ? '' : 'ghost', function () { speed = v; redraw(); }, sending);
    b.setAttribute('aria-pressed', v === pick ? 'true' : 'false');
    return b;
  }

  // One tide of the strip: [its class, its name, how far it is] (the phones' strip and the table's).
  function tideLine(g, t, k) {
    var next = k === g.strip.next && g.phase === 'play';
    return [next ? 'pr-next' : t.done ? 'pr-paid' : '', 'Tide ' + (k + 1) + ' \u00d7' + t.value,
      t.done ? 'paid' : next ? 'next: in ' + g.strip.turns_left + (g.strip.turns_left === 1 ? ' turn' : ' turns') : 'later'];
  }
  function strip(g) {
    var ol = el('ol', 'pr-strip');
    g.strip.tides.forEach(function (t, k) {
      var line = tideLine(g, t, k);
      var li = el('li', line[0]);
      li.appendChild(el('b', null, line[1]));
      li.appendChild(el('span', null, line[2]));
      ol.appendChild(li);
    });
    return ol;
  }

  function board(s, g, me, mine) {
    var R = g.rows, own = coast(g), shells = mine ? g.shells[me] : 0;
    var shifting = mine && !g.shifted && g.shifts_left[me] > 0 && shells >= 1;
    var wrap = el('div', 'pr-coast');
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', 'The coast: five bays, row 1 at the water\u2019s edge');
    g.bays.forEach(function (bay, b) {
      var col = el('div', 'pr-bay');
      var head = el('h3', 'pr-head');
      head.appendChild(el('span', null, 'Bay ' + (b + 1)));
      head.appendChild(el('span', null, bay.pearls + ' pearls'));
      var lead = el('span', 'pr-lead', bay.lead.length === 1 ? SHAPES[bay.lead[0]] + ' ' + g.names[bay.lead[0]]
        : bay.lead.length ? 'tie' : '\u2013');
      lead.setAttribute('aria-label', leadText(g, bay.lead));
      head.appendChild(lead);
      col.appendChild(head);
      for (var row = R - 1; row >= 0; row--) col.appendChild(cell(s, g, own, me, b * R + row, mine, shifting));
      wrap.appendChild(col);
    });
    return wrap;
  }

  function cell(s, g, own, me, c, mine, shifting) {
    var R = g.rows, o = own[c], label = 'Bay ' + (Math.floor(c / R) + 1) + ', row ' + (c % R + 1) + ', ';
    var b = el('button', 'pr-c'), act = null;
    b.type = 'button';
    b.setAttribute('data-cell', c);
    if (o != null) {
      b.appendChild(el('span', 'pr-m', SHAPES[o]));
      b.appendChild(el('span', 'pr-n', g.names[o]));
      // the name shown is in the label too, as what a voice-control user says to tap it
      label += (o === me ? 'your marker, ' + g.names[o] : g.names[o] + '\u2019s marker') + ' (' + SHAPE_WORDS[o] + ')';
      if (o === me && shifting && (from == null ? own.some(function (x, t) { return canShift(g, own, me, c, t); })
        : from === c)) {
        b.className += ' pr-mine';
        label += from === c ? ', picked to shift: tap again to keep it' : ', tap to shift it';
        act = function () { from = from === c ? null : c; aim = null; redraw(); };
      }
    } else {
      var price = g.costs ? g.costs[c] : 0;
      label += 'empty';
      if (price) {
        label += ', costs a shell';
        b.appendChild(el('span', 'pr-shell', 'shell'));
      }
      if (from != null && canShift(g, own, me, from, c)) {
        label += ', shift here for a shell';
        act = function () { aimAt({ from: from, to: c }); };
      } else if (mine && from == null && price <= g.shells[me]) {
        label += ', you can place here';
        act = function () { aimAt({ cell: c }); };
      }
    }
    if (aim && (aim.cell === c || aim.to === c) || from === c) {
      b.className += ' pr-aim';
      b.setAttribute('aria-pressed', 'true');
    }
    if (act && !sending) {
      b.className += ' pr-glow';
      b.addEventListener('click', act);
    } else {
      b.setAttribute('aria-disabled', 'true');
    }
    b.setAttribute('aria-label', label);
    return b;
  }

  function actions(s, g, me) {
    var box = el('div', 'pr-act');
    var cancel = button('Cancel', 'ghost', function () { aim = from = null; redraw(); }, sending);
    if (aim && aim.to != null) {
      box.appendChild(el('p', null, 'Shift your marker from bay ' + (Math.floor(aim.from / g.rows) + 1) + ', row ' +
        (aim.from % g.rows + 1) + ' to bay ' + (Math.floor(aim.to / g.rows) + 1) + ', row ' + (aim.to % g.rows + 1) +
        ' for 1 shell? You place a marker after it.'));
      box.appendChild(button('\u2713 Shift (1 shell)', 'wide', function () {
        send(s, 'shift', { from: aim.from, to: aim.to });
      }, sending));
      box.appendChild(cancel);
    } else if (aim) {
      var price = g.costs[aim.cell];
      box.appendChild(el('p', null, 'Place in bay ' + (Math.floor(aim.cell / g.rows) + 1) + ', row ' +
        (aim.cell % g.rows + 1) + (price ? ' for 1 shell.' : ', free.')));
      box.appendChild(button('\u2713 Place', 'wide', function () { send(s, 'place', { cell: aim.cell }); }, sending));
      box.appendChild(cancel);
    } else if (from != null) {
      box.appendChild(el('p', null, 'Shift: tap a glowing neighbour (1 shell), or the marker again to keep it.'));
      box.appendChild(cancel);
    } else {
      box.appendChild(el('p', null, (g.shifted ? 'You shifted: now ' : 'Tap a glowing cell to aim, then ') +
        'place. ' + (!g.shifted && g.can_shift ? 'To shift first, tap one of your markers.' : '')));
    }
    return box;
  }

  function info(kids) {
    var d = el('section', 'card pr-info');
    d.appendChild(el('h2', null, 'Game info'));
    kids.forEach(function (k) { d.appendChild(k); });
    return d;
  }

  function winnersText(g) {
    return (g.winners.length > 1 ? 'Shared win: ' : 'Winner: ') + g.winners.map(function (i) { return g.names[i]; }).join(', ');
  }
  function standing(st, names) {
    return st[0] + '. ' + names[st[1]] + ' \u2013 ' + T.pts(st[2][0]) + ', ' + st[2][1] + ' shells left';
  }
  function turnText(g, turn) {
    return g.rivals[turn] ? g.names[turn] + ' (rival) is thinking\u2026' : g.names[turn] + '\u2019s turn';
  }

  function render(s, root) {
    var g = s.game, me = s.you.seat, over = g.phase === 'over';
    last = [s, root];
    var turn = g.to_act.length ? g.to_act[0] : null;
    var mine = turn === me && !g.rivals[me];
    if (s.seq !== seen || !mine) { seen = s.seq; aim = from = null; }
    var focus = document.activeElement && document.activeElement.getAttribute('data-cell');
    var kids = [], top = el('div', 'card' + (mine ? ' qdturn' : ''));
    var names = g.names.map(function (n, i) { return SHAPES[i] + ' ' + n; });
    if (over) {
      top.appendChild(el('p', 'status', 'Game over'));
      top.appendChild(el('p', 'winners', winnersText(g)));
      var ol = el('ol', 'standings');
      T.fill(ol, g.standings.map(function (st) { return el('li', null, standing(st, names)); }));
      top.appendChild(ol);
    } else if (mine) {
      top.appendChild(el('p', 'status', 'Your turn, ' + g.names[me]));
      if (buzzed !== s.seq && navigator.vibrate) navigator.vibrate(200);
      buzzed = s.seq;
    } else if (g.rivals[me]) {
      top.appendChild(el('p', 'status', 'A rival gathers for your seat now.'));
    } else {
      top.appendChild(el('p', 'status', turnText(g, turn)));
    }
    if (!over) {
      top.appendChild(el('p', 'small', 'You (' + SHAPE_WORDS[me] + ' ' + SHAPES[me] + '): ' + T.pts(g.points[me]) +
        ', ' + g.shells[me] + (g.shells[me] === 1 ? ' shell, ' : ' shells, ') + g.shifts_left[me] +
        (g.shifts_left[me] === 1 ? ' shift left.' : ' shifts left.')));
    }
    var by = s.shown && s.shown.new_game;
    if (by != null && g.names[by]) top.appendChild(el('p', 'small pr-by', g.names[by] + ' started this game from a phone.'));
    top.appendChild(strip(g));
    top.appendChild(el('p', 'err', err));
    err = '';
    var more = button('⋯ Menu', 'ghost', function () { open.menu = !open.menu; redraw(); });
    more.setAttribute('aria-expanded', open.menu ? 'true' : 'false');
    top.appendChild(more);
    if (open.menu) top.appendChild(menu());
    kids.push(top);
    if (over || open.fresh) kids.push(newGame(s, g, over));
    else { speed = null; asking = false; }
    var sea = el('div', 'card pr-sea');
    sea.appendChild(board(s, g, me, mine && !over));
    sea.appendChild(el('p', 'pr-water', 'the water\u2019s edge'));
    if (mine && !over) sea.appendChild(actions(s, g, me));
    kids.push(sea);
    var card = el('div', 'card pr-news');
    card.appendChild(el('h2', null, 'Points'));
    var ul = el('ul', 'names');
    g.names.forEach(function (n, i) {
      var li = el('li');
      li.appendChild(el('span', null, (i === turn ? '\u25b6 ' : '') + names[i] + (g.rivals[i] ? ' (rival)' : '') +
        (i === me ? ' (you)' : '')));
      li.appendChild(el('span', 'tag', T.pts(g.points[i]) + ', ' + g.shells[i] + (g.shells[i] === 1 ? ' shell' : ' shells')));
      ul.appendChild(li);
    });
    card.appendChild(ul);
    card.appendChild(el('h2', null, 'What happened'));
    // The last tide, a block of its own until the next: what every bay paid, then everything else it
    // logged (every marker it carried out, the shells, who sets out first), so a marker that vanished
    // is explained here. Below it the last few entries since, oldest first as in Game info.
    var log = g.log, start = Math.max(0, log.length - RECENT), paid = -1;
    log.forEach(function (e, i) { if ((e & 15) >= TIDE) paid = i; });
    if (paid >= 0) {
      var k = (log[paid] & 15) - TIDE, after = paid + 1;
      // carried out, shells, who sets out first, the end: the kinds only a tide logs, right after it
      while (after < log.length && (log[after] & 15) >= 5 && (log[after] & 15) <= 8) after++;
      // headed as the rules' log says a tide, "Tide 2 (a pearl is worth 2)"
      card.appendChild(el('h3', null, fill(SAYS[TIDE].split(':')[0], [k + 1, g.strip.tides[k].value])));
      var bays = el('ul', 'small pr-tide');
      var words = tideWords(g, log[paid]).concat(log.slice(paid + 1, after).map(function (e) { return say(g, e); }));
      T.fill(bays, words.map(function (w) { return el('li', null, w); }));
      card.appendChild(bays);
      start = Math.max(start, after);
    }
    if (start < log.length) {
      var happened = el('ol', 'small pr-log');
      T.fill(happened, log.slice(start).map(function (e) { return el('li', null, say(g, e)); }));
      card.appendChild(happened);
    }
    kids.push(card);
    if (open.info) kids.push(gameInfo(g));
    T.fill(root, kids);
    var again = focus != null && root.querySelector('[data-cell="' + focus + '"]');
    if (again) again.focus();
  }

  function gameInfo(g) {
    var log = el('ol', 'small pr-log');
    T.fill(log, g.log.map(function (e) { return el('li', null, say(g, e)); }));
    return info([
      button('Close game info', 'ghost', function () { open.info = false; redraw(); }),
      el('h3', null, 'Every bay'),
      T.sheet(['Bay', 'Pearls'].concat(g.names, ['Leader']), g.bays.map(function (b, k) {
        return [k + 1, b.pearls].concat(b.count, [leadText(g, b.lead)]);
      })),
      el('h3', null, 'Tides'),
      T.sheet(['Tide'].concat(g.names), g.strip.tides.map(function (t, k) {
        return ['Tide ' + (k + 1) + ' \u00d7' + t.value].concat(g.names.map(function (n, i) {
          return t.paid ? t.paid[i] : '\u2013';
        }));
      })),
      el('h3', null, 'The whole log'),
      log
    ]);
  }

  // ---------------------------------------------------------------- the table screen
  // The table's big screen (table.js) follows the box without a seat: its view holds only what is public
  // (no seat's costs). Built once into root, then only its texts and classes change: the coast as the
  // phones draw it, larger, the last move marked on it; beside it whose turn (or a rival thinking), what
  // happened last in the rules' words, the tide strip, and everyone's points, shells, shifts and what
  // each tide paid them; at the end the winners and the final standings.
  var NEWS = 3; // the table's last few log entries
  var tv = null; // the table view's elements, for the coast and the seats they were built for

  function put(e, text) {
    text = String(text);
    if (e.textContent !== text) e.textContent = text;
  }
  function tvBuild(g, root) {
    var R = g.rows, v = { key: g.names.join('\n') + R + g.strip.tides.length, cells: [], heads: [], rows: [] };
    v.box = el('div', 'tv-pr');
    var sea = el('div', 'tv-sea'), wrap = el('div', 'pr-coast');
    wrap.setAttribute('role', 'group');
    g.bays.forEach(function (bay, b) {
      var col = el('div', 'pr-bay'), head = el('h3', 'pr-head');
      var h = [el('span'), el('span', 'tv-pearls'), el('span', 'pr-lead')];
      h[2].setAttribute('role', 'img'); // named in words: who leads the bay
      h.forEach(function (x) { head.appendChild(x); });
      v.heads.push(h);
      col.appendChild(head);
      for (var row = R - 1; row >= 0; row--) {
        var c = el('div', 'pr-c'), m = el('span', 'pr-m'), n = el('span', 'pr-n');
        c.setAttribute('data-cell', b * R + row);
        c.setAttribute('role', 'img'); // named in words: the cell and whose marker
        c.appendChild(m);
        c.appendChild(n);
        v.cells[b * R + row] = [c, m, n];
        col.appendChild(c);
      }
      wrap.appendChild(col);
    });
    v.coast = wrap;
    sea.appendChild(wrap);
    sea.appendChild(el('p', 'pr-water', 'the water\u2019s edge'));
    v.strip = el('ol', 'pr-strip');
    sea.appendChild(v.strip);
    var side = el('div', 'tv-side');
    v.status = el('h1', 'status'); // the screen's heading: whose turn, or the end
    v.sub = el('p', 'tv-sub');
    v.news = el('ol', 'tv-news');
    v.standings = el('ol', 'standings');
    v.tides = g.strip.tides.map(function () {
      var li = el('li'), b = el('b'), span = el('span');
      li.appendChild(b);
      li.appendChild(span);
      v.strip.appendChild(li);
      return [li, b, span];
    });
    var t = el('table', 'tv-sheet'), thead = el('thead'), tr = el('tr');
    v.body = el('tbody');
    ['Gatherer', 'Points', 'Shells', 'Shifts'].concat(g.strip.tides.map(function (x, k) {
      return 'Tide ' + (k + 1);
    })).forEach(function (h) { tr.appendChild(el('th', null, h)); });
    thead.appendChild(tr);
    t.appendChild(thead);
    t.appendChild(v.body);
    g.names.forEach(function () {
      var r = el('tr'), tds = [el('th')];
      for (var k = 0; k < 3 + g.strip.tides.length; k++) tds.push(el('td'));
      tds.forEach(function (d) { r.appendChild(d); });
      v.rows.push([r, tds]);
      v.body.appendChild(r);
    });
    [v.status, v.sub, v.news, v.standings, t].forEach(function (k) { side.appendChild(k); });
    v.box.appendChild(sea);
    v.box.appendChild(side);
    T.fill(root, [v.box]);
    return v;
  }

  // The cells the last turn's move touched: where its marker landed and, after a shift, where one went.
  function lastMove(g) {
    var out = [], log = g.log;
    for (var i = log.length - 1; i >= 0; i--) {
      var kind = log[i] & 15;
      if (kind === 1) {
        out.push(log[i] >> 9 & 31);
        if (i && (log[i - 1] & 15) === 2 && (log[i - 1] >> 4 & 31) === (log[i] >> 4 & 31)) out.push(log[i - 1] >> 14 & 31);
        return out;
      }
      if (kind === 2) return [log[i] >> 14 & 31];
    }
    return out;
  }

  function table(s, root) {
    var g = s.game, R = g.rows, over = g.phase === 'over';
    if (!tv || tv.key !== g.names.join('\n') + R + g.strip.tides.length || !root.contains(tv.box)) tv = tvBuild(g, root);
    var own = coast(g), moved = lastMove(g), turn = g.to_act.length ? g.to_act[0] : null;
    var names = g.names.map(function (n, i) { return SHAPES[i] + ' ' + n; });
    g.bays.forEach(function (bay, b) {
      var h = tv.heads[b];
      put(h[0], 'Bay ' + (b + 1));
      put(h[1], bay.pearls + ' pearls');
      put(h[2], bay.lead.length === 1 ? names[bay.lead[0]] : bay.lead.length ? 'tie' : '\u2013');
      h[2].setAttribute('aria-label', leadText(g, bay.lead));
    });
    own.forEach(function (o, c) {
      var v = tv.cells[c], label = 'Bay ' + (Math.floor(c / R) + 1) + ', row ' + (c % R + 1) + ', ';
      var cls = 'pr-c' + (o != null ? ' tv-s' + o : '') + (o != null && moved.indexOf(c) >= 0 ? ' tv-last' : '');
      if (v[0].className !== cls) v[0].className = cls;
      put(v[1], o != null ? SHAPES[o] : '');
      put(v[2], o != null ? g.names[o] : '');
      v[0].setAttribute('aria-label', label + (o != null ? g.names[o] + '\u2019s marker (' + SHAPE_WORDS[o] + ')' : 'empty'));
    });
    tv.coast.setAttribute('aria-label', 'The coast: five bays, row 1 at the water\u2019s edge');
    put(tv.status, over ? 'Game over' : turn == null ? '' : SHAPES[turn] + ' ' + turnText(g, turn));
    var by = s.shown && s.shown.new_game;
    put(tv.sub, over ? winnersText(g) : by != null && g.names[by] ? g.names[by] + ' started this game from a phone.' : '');
    tv.sub.hidden = !tv.sub.textContent;
    // what happened last, oldest first, the newest marked
    var log = g.log.slice(Math.max(0, g.log.length - NEWS));
    while (tv.news.children.length < log.length) tv.news.appendChild(el('li'));
    while (tv.news.children.length > log.length) tv.news.removeChild(tv.news.lastChild);
    log.forEach(function (e, i) { put(tv.news.children[i], say(g, e)); });
    tv.news.hidden = over;
    var ranks = over ? g.standings : [];
    while (tv.standings.children.length < ranks.length) tv.standings.appendChild(el('li'));
    while (tv.standings.children.length > ranks.length) tv.standings.removeChild(tv.standings.lastChild);
    ranks.forEach(function (st, i) { put(tv.standings.children[i], standing(st, names)); });
    tv.standings.hidden = !over;
    g.strip.tides.forEach(function (t, k) {
      var line = tideLine(g, t, k), v = tv.tides[k];
      if (v[0].className !== line[0]) v[0].className = line[0];
      put(v[1], line[1]);
      put(v[2], line[2]);
    });
    // the seats' rows: in seat order while playing, in the standings' order at the end
    var order = over ? g.standings.map(function (st) { return st[1]; }) : g.names.map(function (n, i) { return i; });
    order.forEach(function (i) {
      var r = tv.rows[i], d = r[1];
      tv.body.appendChild(r[0]); // moved to its place (the same row)
      r[0].className = i === turn && !over ? 'tv-turn' : '';
      put(d[0], (i === turn && !over ? '\u25b6 ' : '') + names[i] + (g.rivals[i] ? ' (rival)' : ''));
      put(d[1], g.points[i]);
      put(d[2], g.shells[i]);
      put(d[3], g.shifts_left[i]);
      g.strip.tides.forEach(function (t, k) { put(d[4 + k], t.paid ? t.paid[i] : '\u2013'); });
    });
  }

  T.games.pearl_reach = { title: 'Pearl Reach', render: render, how: HOW, say: say, table: table };
})();
