// The Quiet Dividend on the phones: the player whose turn it is gets the legal actions as big buttons
// (the box sends them in its view, game.legal: the rules' own list); everyone sees the whole public
// record (values, shares, payouts, whose turn, the turn log), printable.
(function () {
  'use strict';
  var T = window.Tidebox;
  var el = T.el;
  var buzzed = null; // the seq this phone last vibrated for
  var err = '';

  function send(s, a, box) {
    var buttons = box.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    T.move(a.move, a.args, s.seq).then(function (r) { err = r.say; });
  }

  function table(head, rows) {
    var t = el('table', 'sheet qd'), tr = el('tr');
    var thead = el('thead'), body = el('tbody');
    head.forEach(function (h) { tr.appendChild(el('th', null, h)); });
    thead.appendChild(tr);
    rows.forEach(function (row) {
      var r = el('tr');
      row.forEach(function (c, k) { r.appendChild(el(k ? 'td' : 'th', null, String(c))); });
      body.appendChild(r);
    });
    T.fill(t, [thead, body]);
    var wrap = el('div', 'scroll');
    wrap.appendChild(t);
    return wrap;
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
      g.legal.forEach(function (a) { // the rules' legal turns for this seat (its private view)
        var b = el('button', 'wide', a.label);
        b.type = 'button';
        b.addEventListener('click', function () { send(s, a, box); });
        box.appendChild(b);
      });
      card.appendChild(box);
      if (buzzed !== s.seq && navigator.vibrate) navigator.vibrate(200);
      buzzed = s.seq;
    } else {
      card.appendChild(el('p', 'status', names[g.turn] + '\u2019s turn (lap ' + g.lap + ' of ' + g.laps_total + ')'));
    }
    card.appendChild(el('p', 'err', err));
    err = ''; // shown once, until the game changes again
    kids.push(card);
    // the public record
    card = el('div', 'card');
    card.appendChild(el('h2', null, 'The Quiet Dividend \u2013 ' + g.setup_name));
    card.appendChild(el('p', null, 'Values: ' + vals));
    card.appendChild(el('p', 'small', 'Laps done: ' + g.laps + ' of ' + g.laps_total + '. Payouts after laps '
      + g.payout_laps.join(', ') + (g.resets.length ? '; values reset after laps '
      + g.resets.map(function (r) { return r[0]; }).join(', ') : '') + '.'));
    card.appendChild(table(['Player'].concat(g.clubs, ['Points']), names.map(function (n, i) {
      var who = (i === g.turn && !g.over ? '\u25b6\u00a0' : '') + n + (g.seated[i] ? '' : ' (left)');
      return [who].concat(g.shares[i], [g.totals[i]]);
    })));
    if (g.payouts.length) {
      card.appendChild(el('h3', null, 'Payouts'));
      card.appendChild(table(['Player'].concat(g.payouts.map(function (p) {
        return 'Lap ' + p.lap + ' (' + p.values.join('/') + ')';
      })), names.map(function (n, i) {
        return [n].concat(g.payouts.map(function (p) { return p.amounts[i]; }));
      })));
    }
    card.appendChild(el('h3', null, 'Turns'));
    var log = el('ol', 'small');
    T.fill(log, g.log.map(function (e) { return el('li', null, 'Lap ' + e[0] + ': ' + e[2]); }));
    card.appendChild(log);
    var print = el('button', 'ghost noprint', 'Print record sheet');
    print.type = 'button';
    print.addEventListener('click', function () { window.print(); });
    card.appendChild(print);
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
    'The highest total of the three payouts wins; tied players share the win.'
  ];

  T.games.quiet_dividend = { title: 'The Quiet Dividend', render: render, how: HOW };
})();
