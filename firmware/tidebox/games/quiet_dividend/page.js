// The Quiet Dividend on the phones: the player whose turn it is gets the legal actions as big buttons
// (the box sends them in its view, game.legal: the rules' own list); everyone sees the whole public
// record (values, shares, payouts, whose turn, the turn log), printable.
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

  function render(s, root) {
    var g = s.game, me = s.you.seat, mine = !g.over && g.turn === me;
    var kids = [], card;
    var names = g.names;
    var vals = g.clubs.map(function (c, k) { return c + ' ' + g.values[k]; }).join(' \u00b7 ');
    // whose turn: a banner for this player, a line for everyone else
    card = el('div', 'card');
    if (g.over) {
      card.appendChild(el('p', 'status', 'Game over'));
      card.appendChild(el('p', 'winners', (g.winners.length > 1 ? 'Shared win: ' : 'Winner: ')
        + g.winners.map(function (i) { return names[i]; }).join(', ')));
      var ol = el('ol', 'standings');
      T.fill(ol, g.standings.map(function (st) {
        return el('li', null, st[0] + '. ' + names[st[1]] + ' \u2013 ' + T.pts(st[2]));
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
      card.appendChild(el('p', 'status', names[g.turn] + '\u2019s turn (lap ' + g.lap + ' of ' + g.laps_total + ')'));
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
    T.fill(log, g.log.map(function (e) { return el('li', null, 'Lap ' + e[0] + ': ' + e[2]); }));
    card.appendChild(log);
    card.appendChild(T.printButton());
    kids.push(card);
    T.fill(root, kids);
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

  T.games.quiet_dividend = { title: 'The Quiet Dividend', render: render, how: HOW };
})();
