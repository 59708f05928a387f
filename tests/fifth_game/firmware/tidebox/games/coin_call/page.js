// Coin Call on the phones: before each flip, a player who has not called gets Heads and Tails;
// everyone sees who has called, the coins flipped so far and the points; at the end, who won.
(function () {
  'use strict';
  var T = window.Tidebox;
  var el = T.el;
  var err = '';

  function render(s, root) {
    var g = s.game, me = s.you.seat, kids = [];
    var names = s.seats.map(function (seat) { return seat.name; });
    var card = el('div', 'card');
    card.appendChild(el('h2', null, g.over ? 'Coin Call: over' : 'Coin Call: flip ' + (g.flipped + 1) + ' of ' + g.flips));
    if (g.coins.length) card.appendChild(el('p', null, (g.over ? 'The coins: ' : 'The coins so far: ') + g.coins.join(', ') + '.'));
    if (g.over) {
      card.appendChild(el('p', 'winners', (g.winners.length > 1 ? 'Shared win: ' : 'Winner: ')
        + g.winners.map(function (i) { return names[i]; }).join(', ')));
    } else if (g.legal.length) {
      card.appendChild(el('p', 'status', 'Call the coin, ' + names[me] + '.'));
      var row = el('div', 'ccsides');
      g.legal.forEach(function (a) {
        var b = el('button', 'wide', a.args.side === 'heads' ? 'Heads' : 'Tails');
        b.type = 'button';
        b.addEventListener('click', function () {
          T.move(a.move, a.args, s.seq).then(function (r) { err = r.say; });
        });
        row.appendChild(b);
      });
      card.appendChild(row);
    } else {
      card.appendChild(el('p', 'status', g.call ? 'You called ' + g.call + '. The reader flips the coin.'
        : 'Waiting for the others.'));
    }
    card.appendChild(el('p', 'err', err));
    err = '';
    kids.push(card);
    var list = el('ul', 'names');
    T.fill(list, names.map(function (n, i) {
      var called = g.over || !g.seated[i] ? '' : g.called[i] ? ', called' : ', to call';
      return el('li', null, n + ': ' + T.pts(g.right[i]) + called);
    }));
    kids.push(list);
    T.fill(root, kids);
  }

  var HOW = [
    'Before each flip everyone calls heads or tails on their phone; nobody sees another\u2019s call.',
    'Once all have called, the reader flips the coin on the box: each right call scores a point.',
    'After the last flip (three, or five as set up on the box) the most points win.'
  ];

  T.games.coin_call = { title: 'Coin Call', render: render, how: HOW };
})();
