// The Quiet Dividend on the phones: the player whose turn it is gets the legal actions as big buttons
// (the box sends them in its view, game.legal: the rules' own list); everyone sees the whole public
// record (values, shares, payouts, whose turn, the turn log), printable. On the table screen (`table`)
// the same public record, large: the clubs' values, the laps and their payouts, everyone's shares and
// points, whose turn it is, the latest payout and the latest turns.
(function () {
  'use strict';
  var T = window.Tidebox;
  var el = T.el;
  var buzzed = null; // the seq this phone last vibrated for
  var err = '';

  var chosen = null; // {seq, i}: the action this phone picked on the view numbered seq, not yet confirmed
  var note = ''; // why the last choice sent nothing: the game changed meanwhile
  var CHANGED = 'The game changed before your turn was sent: here it is now. Choose again.';
  var sending = false; // a confirmed turn is on its way: no button sends another until it is answered

  // The chosen action, once confirmed: first an idle poll ("unchanged since v?") in the page's one
  // queue, then the move right behind it. When the game has moved on meanwhile (the reader's undo,
  // someone else's turn) the move is not sent: the page shows the game as it is now, with its own
  // buttons. The move's seq still makes the box refuse a move sent on a stale view (409). A second
  // tap finds the turn's buttons off, and a view drawn meanwhile draws them off too.
  function send(s, a, turn) {
    if (sending) return;
    sending = true;
    var buttons = turn.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    chosen = null;
    T.api('GET', '/api/state?v=' + s.v).then(function (r) {
      if (r.status !== 200 || r.data.v !== s.v || 'box' in r.data) {
        sending = false;
        note = CHANGED;
        T.refresh();
        return;
      }
      T.move(a.move, a.args, s.seq).then(function (r) {
        sending = false;
        err = r.say;
      });
    });
  }

  // The setup in play, as the sheet wants it beside the board: its name, its starting values, its
  // payout laps and every reset's values ("Setup: Seasonal. Starts A 1, B 2, C 3; pays after laps 2,
  // 4 and 6; after the lap 2 payout the values become A 3, B 1, C 2; ...").
  function valuesText(g, values) {
    return values.map(function (v, k) { return g.clubs[k] + ' ' + v; }).join(', ');
  }
  function setupText(g) {
    var laps = g.payout_laps.slice(0, -1).join(', ') + ' and ' + g.payout_laps[g.payout_laps.length - 1];
    return 'Setup: ' + g.setup_name + '. Starts ' + valuesText(g, g.start) + '; pays after laps ' + laps
      + (g.resets.length ? g.resets.map(function (r) {
        return '; after the lap ' + r[0] + ' payout the values become ' + valuesText(g, r[1]);
      }).join('') : '; no resets') + '.';
  }

  // The wording both views share.
  function turnText(g) {
    return g.names[g.turn] + '\u2019s turn (lap ' + g.lap + ' of ' + g.laps_total + ')';
  }
  function winnersText(g) {
    return (g.winners.length > 1 ? 'Shared win: ' : 'Winner: ') + g.winners.map(function (i) { return g.names[i]; }).join(', ');
  }
  function standingText(g, st) {
    return st[0] + '. ' + g.names[st[1]] + ' \u2013 ' + T.pts(st[2]);
  }
  function logText(e) {
    return 'Lap ' + e[0] + ': ' + e[2];
  }

  function render(s, root) {
    var g = s.game, me = s.you.seat, mine = !g.over && g.turn === me;
    var kids = [], card;
    var names = g.names;
    var vals = g.clubs.map(function (c, k) { return c + ' ' + g.values[k]; }).join(' \u00b7 ');
    // whose turn: a banner for this player, a line for everyone else
    card = el('div', 'card');
    if (g.over) {
      card.appendChild(el('p', 'status', 'Game over'));
      card.appendChild(el('p', 'winners', winnersText(g)));
      var ol = el('ol', 'standings');
      T.fill(ol, g.standings.map(function (st) {
        return el('li', null, standingText(g, st));
      }));
      card.appendChild(ol);
    } else if (mine) {
      card.className = 'card qdturn';
      card.appendChild(el('p', 'status', 'Your turn, ' + names[me] + ': lap ' + g.lap + ' of ' + g.laps_total));
      var box = el('div', 'qdacts');
      if (chosen && chosen.seq !== s.seq) { // the game changed before the choice was confirmed
        chosen = null;
        note = CHANGED;
      }
      g.legal.forEach(function (a, i) { // the rules' legal turns for this seat (its private view)
        var b = el('button', 'wide' + (chosen && chosen.i === i ? ' chosen' : ''), a.label);
        b.type = 'button';
        b.disabled = sending;
        b.setAttribute('aria-pressed', chosen && chosen.i === i ? 'true' : 'false');
        b.addEventListener('click', function () { chosen = { seq: s.seq, i: i }; render(s, root); });
        box.appendChild(b);
      });
      card.appendChild(box);
      if (chosen) { // a mis-tap costs nothing: the action is taken only once confirmed
        var a = g.legal[chosen.i], bar = el('div', 'qdconfirm');
        var yes = el('button', 'wide', 'Confirm: ' + a.label), no = el('button', 'ghost', 'Cancel');
        var turn = card; // by the time of a tap, `card` is the record's below
        yes.type = no.type = 'button';
        yes.addEventListener('click', function () { send(s, a, turn); });
        no.addEventListener('click', function () { chosen = null; render(s, root); });
        bar.appendChild(yes);
        bar.appendChild(no);
        card.appendChild(bar);
      }
      if (buzzed !== s.seq && navigator.vibrate) navigator.vibrate(200);
      buzzed = s.seq;
    } else {
      card.appendChild(el('p', 'status', turnText(g)));
    }
    card.appendChild(el('p', 'err', err || note));
    err = ''; // shown once, until the game changes again
    note = '';
    kids.push(card);
    // the public record
    card = el('div', 'card');
    card.appendChild(el('h2', null, 'The Quiet Dividend \u2013 ' + g.setup_name));
    card.appendChild(el('p', null, 'Values: ' + vals));
    card.appendChild(el('p', 'small', 'Laps done: ' + g.laps + ' of ' + g.laps_total + '.'));
    card.appendChild(el('p', 'small qdsetup', setupText(g)));
    card.appendChild(T.sheet(['Player'].concat(g.clubs, ['Points']), names.map(function (n, i) {
      var who = (i === g.turn && !g.over ? '\u25b6\u00a0' : '') + n + (g.seated[i] ? '' : ' (left)');
      return [who].concat(g.shares[i], [g.totals[i]]);
    })));
    if (g.payouts.length) {
      card.appendChild(el('h3', null, 'Payouts'));
      card.appendChild(T.sheet(['Player'].concat(g.payouts.map(function (p) {
        return 'Lap ' + p.lap + ' (' + p.values.join('/') + ')';
      })), names.map(function (n, i) {
        return [n].concat(g.payouts.map(function (p) { return p.amounts[i]; }));
      })));
    }
    card.appendChild(el('h3', null, 'Turns'));
    var log = el('ol', 'small');
    T.fill(log, g.log.map(function (e) { return el('li', null, logText(e)); }));
    card.appendChild(log);
    card.appendChild(T.printButton());
    kids.push(card);
    T.fill(root, kids);
  }

  // ---------------------------------------------------------------- the table screen
  // Built once for a table (again when the table or the setup's payout laps change); each view then
  // only sets texts and classes. Read from across the room: the clubs' values large, the laps with
  // their payouts, a row a player (shares, each payout, points), the latest payout and turns beside.
  var LOG_LINES = 8; // the latest turns shown, newest first (as many as fit)
  var tv = null;

  function put(e, text) {
    text = String(text);
    if (e.textContent !== text) e.textContent = text;
  }
  function add(parent, tag, cls, text) {
    return parent.appendChild(el(tag, cls, text));
  }
  function build(g, root, key) {
    var t = { key: key, box: el('div', 'tv-qd'), clubs: [], laps: [], rows: [], heads: [], log: [], final: [] };
    var left = add(t.box, 'div', 'tvq-left'), right = t.right = add(t.box, 'div', 'tvq-right');
    t.turn = add(left, 'p', 'tvq-turn');
    var clubs = add(left, 'div', 'tvq-clubs');
    g.clubs.forEach(function () {
      var c = add(clubs, 'div', 'tvq-club');
      t.clubs.push({ box: c, name: add(c, 'span', 'tvq-cname'), value: add(c, 'b', 'tvq-val'), held: add(c, 'span', 'tvq-held') });
    });
    var laps = add(left, 'ol', 'tvq-laps');
    for (var k = 1; k <= g.laps_total; k++) {
      var li = add(laps, 'li');
      t.laps.push({ li: li, name: add(li, 'span', null, 'Lap ' + k), note: add(li, 'span', 'tvq-note') });
    }
    t.setup = add(left, 'p', 'tvq-setup');
    var table = add(left, 'table', 'tvq-board'), head = add(add(table, 'thead'), 'tr'), body = add(table, 'tbody');
    add(head, 'th', null, 'Player').scope = 'col';
    g.clubs.forEach(function () { t.heads.push(add(head, 'th', 'tvq-sh')); });
    t.pays = g.payout_laps.map(function (lap) {
      var th = add(head, 'th', 'tvq-pay');
      add(th, 'span', null, 'Lap ' + lap);
      return { th: th, note: add(th, 'span', 'tvq-note') };
    });
    add(head, 'th', 'tvq-pts', 'Points');
    g.names.forEach(function () {
      var tr = add(body, 'tr'), row = { tr: tr, name: add(tr, 'th'), cells: [] };
      row.name.scope = 'row';
      for (var i = 0; i < g.clubs.length + g.payout_laps.length + 1; i++) row.cells.push(add(tr, 'td'));
      t.rows.push(row);
    });
    t.paid = add(right, 'div', 'tvq-paid');
    t.paidHead = add(t.paid, 'h2');
    t.paidValues = add(t.paid, 'p');
    t.paidMost = add(t.paid, 'p', 'tvq-most');
    t.paidReset = add(t.paid, 'p', 'tvq-reset');
    t.finalBox = add(right, 'div', 'tvq-final');
    add(t.finalBox, 'h2', null, 'Final standings');
    var ol = add(t.finalBox, 'ol');
    g.names.forEach(function () { t.final.push(add(ol, 'li')); });
    add(right, 'h2', null, 'Turns');
    var log = add(right, 'ol', 'tvq-log');
    for (var n = 0; n < LOG_LINES; n++) t.log.push(add(log, 'li'));
    T.fill(root, [t.box]);
    return t;
  }

  function table(s, root) {
    var g = s.game, names = g.names;
    var key = [names.length, g.clubs.length, g.laps_total, g.payout_laps.join()].join('|');
    if (!tv || tv.key !== key || tv.box.parentNode !== root) tv = build(g, root, key);
    var t = tv, last = g.payouts[g.payouts.length - 1], k;
    // whose turn, or the end
    var won = winnersText(g);
    if (won.length > 40) won = 'Shared win: ' + g.winners.length + ' players'; // the standings name them
    put(t.turn, g.over ? 'Game over. ' + won : turnText(g));
    t.turn.className = 'tvq-turn' + (g.over ? ' over' : '');
    // the clubs: their values now, and the shares held in each
    t.clubs.forEach(function (c, i) {
      var held = 0;
      g.shares.forEach(function (sh) { held += sh[i]; });
      put(c.name, g.clubs[i]);
      put(c.value, g.values[i]);
      put(c.held, held + (held === 1 ? ' share held' : ' shares held'));
    });
    // the laps: done, being played, paying
    t.laps.forEach(function (l, i) {
      var lap = i + 1, pays = g.payout_laps.indexOf(lap) >= 0;
      var done = lap <= g.laps, now = !g.over && lap === g.lap;
      l.li.className = (pays ? 'pay' : '') + (done ? ' done' : '') + (now ? ' now' : '');
      put(l.note, pays ? (done ? 'paid' : 'pays') : (now ? 'now' : ''));
      if (now) l.li.setAttribute('aria-current', 'step'); else l.li.removeAttribute('aria-current');
    });
    put(t.setup, setupText(g));
    // a row a player: shares in each club, each payout, points
    t.heads.forEach(function (th, i) { put(th, g.clubs[i]); });
    g.payout_laps.forEach(function (lap, j) {
      var p = paidAt(g, lap);
      put(t.pays[j].note, p ? p.values.join('/') : 'to come');
      t.pays[j].th.className = 'tvq-pay' + (p && p === last ? ' last' : '');
    });
    t.rows.forEach(function (row, i) {
      var now = !g.over && i === g.turn;
      row.tr.className = (now ? 'now' : '') + (g.seated[i] ? '' : ' left') + (g.over && g.winners.indexOf(i) >= 0 ? ' won' : '');
      put(row.name, (now ? '\u25b6\u00a0' : '') + names[i] + (g.seated[i] ? '' : ' (left)'));
      var cells = g.shares[i].concat(g.payout_laps.map(function (lap) {
        var p = paidAt(g, lap);
        return p ? p.amounts[i] : '\u2013';
      }), [g.totals[i]]);
      cells.forEach(function (c, j) { put(row.cells[j], c); });
      row.cells.forEach(function (td, j) {
        var pay = g.payout_laps[j - g.clubs.length];
        td.className = last && pay === last.lap ? 'last' : '';
      });
    });
    // the latest payout; fresh while no turn of the next lap has been taken
    t.paid.hidden = !last || g.over;
    if (last) {
      var fresh = g.log.length && g.log[g.log.length - 1][0] === last.lap;
      t.paid.className = 'tvq-paid' + (fresh ? ' fresh' : '');
      put(t.paidHead, 'Payout after lap ' + last.lap);
      put(t.paidValues, 'Values ' + valuesText(g, last.values));
      var most = Math.max.apply(null, last.amounts);
      put(t.paidMost, 'Most paid: ' + T.list(names.filter(function (n, i) { return last.amounts[i] === most; }))
        + ' +' + most);
      put(t.paidReset, last.reset ? 'The values are now ' + valuesText(g, last.reset) + '.' : '');
    }
    // the end: the final standings
    t.finalBox.hidden = !g.over;
    t.final.forEach(function (li, i) {
      var st = g.standings[i];
      li.hidden = !st;
      if (st) put(li, standingText(g, st));
    });
    // the latest turns, newest first
    for (k = 0; k < LOG_LINES; k++) {
      var e = g.log[g.log.length - 1 - k];
      t.log[k].hidden = !e && k > 0;
      put(t.log[k], e ? logText(e) : (k ? '' : 'No turns yet.'));
    }
    // a turn that does not fit whole above the panel's corner is not shown at all
    var bottom = t.right.getBoundingClientRect().bottom;
    t.log.forEach(function (li) {
      li.style.visibility = li.getBoundingClientRect().bottom > bottom + 1 ? 'hidden' : '';
    });
  }
  function paidAt(g, lap) {
    for (var i = 0; i < g.payouts.length; i++) if (g.payouts[i].lap === lap) return g.payouts[i];
    return null;
  }

  var HOW = [
    'Three clubs pay points to their members. On your turn take exactly one action: Join (one share in a' +
      ' club), Promote (a club\u2019s value +1, at most 4; you need not own it) or Switch (move one of your' +
      ' shares to another club).',
    'Limits: at most 2 shares in one club and 4 in all. You pass only when nothing is legal.',
    'Six laps, one turn each. After the marked payout laps every club pays at once: your shares in each' +
      ' club times its value. Seasonal resets the values after its first two payouts.',
    'The highest total of the three payouts wins; tied players share the win.',
    'The setups (the reader picks one on the box; the board below names it): Steady starts A 1, B 1, C 1' +
      ' and pays after laps 2, 4 and 6, no resets. Early Opening starts A 2, B 1, C 0 and pays after laps' +
      ' 1, 3 and 6, no resets. Seasonal starts A 1, B 2, C 3 and pays after laps 2, 4 and 6; after the' +
      ' lap 2 payout the values become A 3, B 1, C 2, after the lap 4 payout A 2, B 3, C 1.'
  ];

  T.games.quiet_dividend = { title: 'The Quiet Dividend', render: render, table: table, how: HOW };
})();
