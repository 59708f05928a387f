// Paper Current on the phones: the course card, whose launch it is, score entry for the eight boats
// (any phone: the game is cooperative), the shared total against the target, and the "Build the
// harbour" guide drawn from the rule sheet's dimensions (checked against them by the tests).
(function () {
  var T = window.Tidebox;
  var el = T.el;
  // SVG's namespace name (an identifier, never fetched; split so the page holds no URL)
  var NS = 'http:' + '//www.w3.org/2000/svg';
  // the rule sheet's dimensions in cm (a test checks them against the sheet's copy in
  // tests/games/paper_current/paper_current_sheet.py)
  var H = {
    length: 80, width: 30, line: 10, zone: 10, offset: 10, outerW: 18, outerH: 24, beyond: 30,
    near: 40, far: 64, innerW: 10, innerH: 12, behind: 10, boat: 3
  };
  var SAFETY = [
    'Paper boats only: no metal clips, sharp folds, added weights or small hard projectiles.',
    'Test one gentle slide before the game to choose a safe force.',
    'The sheet must lie flat; tape its outer corners with removable tape only if the table owner permits.',
    'Do not use a delicate surface, send boats off an elevated edge, blow on pieces or aim toward people.',
    'Stop to clear cups and fragile objects before playing.',
    'Slide with one continuous push; the boat stays on the table. No throwing, no flicking into the air.',
    'Other hands stay out of the lane until everything stops.'
  ];
  var WORDS = ['0 out', '1 outer', '2 inner'];
  var note = '';
  var noteBoat = 0; // the boat whose buttons were tapped when the box refused: its note goes under them
  var sending = {}; // boat -> true while its result is on its way: its buttons send nothing more
  var guide = null; // built once: it never changes

  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }

  // The lane from above, the players at the bottom (near end): y = 0 is the far end.
  function drawing() {
    var L = H.length, W = H.width, mid = W / 2;
    var s = svg('svg', { viewBox: '-5 -9 63 100', role: 'img', 'class': 'pc-svg' });
    s.appendChild(svg('title', {}, 'The lane, launch line, launch zones and the harbour, with dimensions'));
    function add(tag, a, text) { var e = svg(tag, a, text); s.appendChild(e); return e; }
    function box(x, y, w, h, cls) { add('rect', { x: x, y: y, width: w, height: h, 'class': cls }); }
    function label(x, y, text, anchor, rotate, cls) {
      var a = { x: x, y: y, 'text-anchor': anchor || 'middle' };
      if (cls) a['class'] = cls;
      if (rotate) a.transform = 'rotate(-90 ' + x + ' ' + y + ')';
      add('text', a, text);
    }
    var line = L - H.line;
    box(0, 0, W, L, 'pc-lane');
    box(mid - 10.5, L - H.far - (29.7 - H.outerH) / 2, 21, 29.7, 'pc-sheet');
    box(mid - H.outerW / 2, L - H.far, H.outerW, H.outerH, 'pc-outer');
    box(mid - H.innerW / 2, L - H.far + (H.outerH - H.innerH) / 2, H.innerW, H.innerH, 'pc-inner');
    add('line', { x1: 0, y1: line, x2: W, y2: line, 'class': 'pc-line' });
    ['left', 'centre', 'right'].forEach(function (z, i) {
      var x = mid + (i - 1) * H.offset - H.zone / 2;
      box(x + 0.4, line + 0.8, H.zone - 0.8, H.line - 1.6, 'pc-zone');
      label(x + H.zone / 2, line + 4.5, z);
      label(x + H.zone / 2, line + 8, H.zone + ' cm');
    });
    label(mid, -5.5, 'at least ' + H.behind + ' cm clear behind the sheet');
    label(mid, -1.5, 'lane ' + W + ' cm wide');
    label(-2.5, L / 2, 'lane ' + L + ' cm long', 'middle', true);
    label(mid, L - H.far + 3.5, 'OUTER / 1: ' + H.outerW + ' \u00d7 ' + H.outerH + ' cm', 0, 0, 'pc-s');
    label(mid, L - H.far + H.outerH / 2 - 0.5, 'INNER / 2', 0, 0, 'pc-s');
    label(mid, L - H.far + H.outerH / 2 + 2.5, H.innerW + ' \u00d7 ' + H.innerH + ' cm', 0, 0, 'pc-s');
    add('line', { x1: W + 2, y1: line, x2: W + 2, y2: L - H.near, 'class': 'pc-dim' });
    label(W + 4.5, (line + L - H.near) / 2, H.beyond + ' cm beyond the line', 'middle', true);
    label(W + 6.5, L - H.near + 1, 'near edge ' + H.near + ' cm', 'start');
    label(W + 6.5, L - H.far + 1, 'far edge ' + H.far + ' cm', 'start');
    label(mid, line - 1.2, 'launch line ' + H.line + ' cm from the near end', 0, 0, 'pc-s');
    label(mid, line - 3.4, 'zone centres: centre line, ' + H.offset + ' cm each side', 0, 0, 'pc-s');
    label(mid, L + 4, 'players sit here (near end)');
    label(mid, L + 7, 'boats about ' + H.boat + ' cm wide');
    return s;
  }

  function buildGuide() {
    var d = el('details', 'card');
    d.appendChild(el('summary', 'status', 'Build the harbour'));
    d.appendChild(el('p', 'small', 'Not to print scale: measure with a ruler, the ruler is the authority. ' +
      'Lay an A4 or Letter sheet, portrait, at the far end of the lane; left and right are as seen ' +
      'from the seated player.'));
    d.appendChild(drawing());
    d.appendChild(el('h3', null, 'Safety'));
    var ul = el('ul', 'small');
    SAFETY.forEach(function (t) { ul.appendChild(el('li', null, t)); });
    d.appendChild(ul);
    return d;
  }

  // No seq: `was` (the boat's result as this phone saw it) refuses an edit made on a stale copy of that
  // boat only, so phones entering different boats at once are not refused. The boat's buttons stay off
  // until the answer and the game as it is then: a second tap would be sent on the same stale `was`
  // and refused as someone else's change.
  function send(g, boat, result, row) {
    if (sending[boat]) return;
    sending[boat] = true;
    note = '';
    noteBoat = boat;
    var buttons = row.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    T.move('set_result', { boat: boat, result: result, was: g.results[boat - 1] }).then(function (r) {
      delete sending[boat];
      note = r.say;
    });
  }

  // The boats' points and the bonus, in the box's words for them ("16 pts, bonus +2" there).
  function boatsLine(boats, bonus) { return T.pts(boats) + ', bonus +' + bonus; }

  function scoreEntry(g) {
    var c = el('section', 'card');
    c.appendChild(el('h2', null, 'Where did each boat stop? (' + g.entered + ' of 8 entered)'));
    g.results.forEach(function (now, i) {
      var row = el('div', 'row pc-boat');
      row.appendChild(el('span', 'pc-n', 'Boat ' + (i + 1) + ' (' + g.names[g.order[i]] + ')'));
      [2, 1, 0].forEach(function (r) {
        var b = el('button', now === r ? 'pc-on' : 'ghost', WORDS[r]);
        b.setAttribute('aria-pressed', now === r ? 'true' : 'false');
        b.disabled = !!sending[i + 1];
        b.addEventListener('click', function () { send(g, i + 1, r, row); });
        row.appendChild(b);
      });
      c.appendChild(row);
      if (note && noteBoat === i + 1) c.appendChild(el('p', 'err pc-note', note)); // where the tap was
    });
    c.appendChild(el('p', null, 'So far ' + boatsLine(g.so_far, g.bonus_holds ? 2 : 0) +
      '. The reader confirms the round on the box.'));
    return c;
  }

  // The rule sheet's access adjustments (rules.ACCESS), as the table chose them on the box's setup.
  var ACCESS = [['seated', 'play seated'], ['long_zone', 'longer release zone'], ['helper', 'helper slides'],
    ['card_push', 'card, not finger']];

  function render(s, root) {
    var g = s.game;
    var card = g.card;
    var kids = [];
    var head = el('section', 'card');
    head.appendChild(el('h2', null, g.over ? 'Course over' : 'Round ' + g.round + ' of ' + g.rounds + ': ' + card.name));
    if (!g.over) {
      head.appendChild(el('p', null, 'Launch zone: ' + card.zone + ' (as seen from your seat). ' + card.zone_words + '.'));
      head.appendChild(el('p', null, 'Bonus: ' + card.bonus));
    }
    var status = '';
    if (g.phase === 'launch') {
      status = 'Boat ' + g.boat + ' of 8: ' + g.launcher_name + ' launches.';
      var mine = g.boats || [];
      var you = g.now ? 'Your boat: ' + g.boat + ', slide it now.' : g.next ? 'Your boat: ' + g.next + ' (next).'
        : 'No more boats for you this round.';
      head.appendChild(el('p', 'status', status));
      head.appendChild(el('p', 'status pc-you', you));
      head.appendChild(el('p', 'small', 'Your boats this round: ' + (mine.length ? mine.join(', ') : 'none')));
    } else if (g.phase === 'scored') {
      var last = g.played[g.played.length - 1];
      head.appendChild(el('p', 'status', 'Round ' + last.n + ' scored: ' + last.score + ' of 18 (' +
        boatsLine(last.boats, last.bonus) + '). The reader turns to the next round.'));
    } else if (g.over) {
      head.appendChild(el('p', 'status', g.total + ' of ' + g.max_total + ': the target of ' + g.target +
        (g.reached ? ' is reached. Well docked!' : ' is not reached.')));
    }
    kids.push(head);
    if (note && g.phase !== 'score') kids.push(el('p', 'err', note));
    if (g.phase === 'score') kids.push(scoreEntry(g));
    var tot = el('section', 'card');
    tot.appendChild(el('p', 'status', 'Total ' + g.total + ' of ' + g.max_total + ', target ' + g.target));
    var ul = el('ul', 'names');
    g.played.forEach(function (r) {
      var li = el('li');
      li.appendChild(el('span', null, 'Round ' + r.n + ': ' + r.name));
      li.appendChild(el('span', 'tag', r.score + ': ' + boatsLine(r.boats, r.bonus)));
      ul.appendChild(li);
    });
    tot.appendChild(ul);
    var adjusted = ACCESS.filter(function (a) { return g.access && g.access[a[0]]; });
    if (adjusted.length) {
      tot.appendChild(el('p', 'small', 'Access adjustments for this game: ' +
        adjusted.map(function (a) { return a[1]; }).join('; ') + ' (set on the box before the first round).'));
    }
    kids.push(tot);
    if (!guide) guide = buildGuide();
    kids.push(guide);
    T.fill(root, kids);
  }

  // ---------------------------------------------------------------- the table screen
  // The big screen's view (table.js calls it with the seatless view: nothing private in it, and the
  // cards still to come stay face down there too): the card, the launch order with each boat's result,
  // the bonus, and the course against the target. Built once into root; each call only sets texts
  // and classes. The bottom-right corner is left free for the box's panel.
  var tv = null;
  function put(e, text) {
    text = String(text);
    if (e.textContent !== text) e.textContent = text;
  }
  function cls(e, c) { if (e.className !== c) e.className = c; }
  function add(parent, tag, c, text) { var e = el(tag, c, text); parent.appendChild(e); return e; }
  var ZONES = ['left', 'centre', 'right'];

  function buildTable(root) {
    var t = { box: el('div', 'tv-pc') };
    var left = add(t.box, 'div', 'pc-l'), right = add(t.box, 'div', 'pc-side');
    t.round = add(left, 'p', 'pc-kick');
    t.name = add(left, 'h1', 'pc-name');
    var z = add(left, 'div', 'pc-zones');
    add(z, 'span', 'pc-zl', 'Launch zone');
    t.zones = ZONES.map(function (n) { return add(z, 'span', 'pc-z', n); });
    t.bonus = add(left, 'p', 'pc-bonus');
    t.status = add(left, 'p', 'pc-st');
    var boats = add(left, 'ol', 'pc-boats');
    t.boats = [];
    for (var i = 0; i < 8; i++) {
      var li = add(boats, 'li', 'pc-b');
      t.boats.push({ li: li, n: add(li, 'span', 'pc-bn', 'Boat ' + (i + 1)), who: add(li, 'span', 'pc-who'),
        res: add(li, 'span', 'pc-res') });
    }
    add(right, 'h2', null, 'The course');
    t.total = add(right, 'p', 'pc-total');
    var bar = add(right, 'div', 'pc-bar');
    t.fillBar = add(bar, 'span', 'pc-fill');
    t.mark = add(bar, 'span', 'pc-mark');
    t.aim = add(right, 'p', 'pc-aim');
    t.rounds = [];
    var ul = add(right, 'ul', 'pc-rounds');
    for (var r = 0; r < 3; r++) {
      var rl = add(ul, 'li');
      t.rounds.push({ li: rl, name: add(rl, 'span'), score: add(rl, 'span', 'tag') });
    }
    t.access = add(right, 'p', 'pc-acc');
    return t;
  }

  function table(s, root) {
    var g = s.game;
    if (!tv || tv.box.parentNode !== root) {
      tv = buildTable(root);
      T.fill(root, [tv.box]);
    }
    var card = g.card, launch = g.phase === 'launch', scoring = g.phase === 'score';
    var last = g.played[g.played.length - 1];
    put(tv.round, g.over ? 'Course over' : 'Round ' + g.round + ' of ' + g.rounds);
    put(tv.name, card.name);
    tv.zones.forEach(function (e, i) { cls(e, ZONES[i] === card.zone ? 'pc-z pc-here' : 'pc-z'); });
    var holds = scoring ? (g.bonus_holds ? ' Holds so far: +2.' : ' Not yet: +0 so far.') : '';
    if (!launch && !scoring && last) holds = ' This round: +' + last.bonus + '.';
    put(tv.bonus, 'Bonus: ' + card.bonus + holds);
    var status;
    if (launch) status = 'Boat ' + g.boat + ' of 8: ' + g.launcher_name + ' launches.';
    else if (scoring) status = 'Where did each boat stop? ' + g.entered + ' of 8 entered, so far ' +
      boatsLine(g.so_far, g.bonus_holds ? 2 : 0) + '.';
    else if (g.over) status = g.total + ' of ' + g.max_total + ': the target of ' + g.target +
      (g.reached ? ' is reached. Well docked!' : ' is not reached.');
    else status = 'Round ' + last.n + ' scored: ' + last.score + ' of 18 (' +
      boatsLine(last.boats, last.bonus) + '). The reader turns to the next round.';
    put(tv.status, status);
    tv.boats.forEach(function (b, i) {
      var r = g.results[i], c = 'pc-b';
      if (launch && i + 1 === g.boat) c += ' pc-now';
      else if (launch && i + 1 < g.boat) c += ' pc-gone';
      if (r != null) c += ' pc-r' + r;
      cls(b.li, c);
      put(b.who, g.names[g.order[i]]);
      var where = i + 1 === g.boat ? 'launching' : i + 1 < g.boat ? 'launched' : 'to come';
      put(b.res, r != null ? WORDS[r] : launch ? where : 'not entered');
    });
    put(tv.total, 'Total ' + g.total + ' of ' + g.max_total);
    tv.fillBar.style.width = (100 * Math.min(g.total, g.max_total) / g.max_total) + '%';
    tv.mark.style.left = (100 * g.target / g.max_total) + '%';
    var more = g.target - g.total;
    put(tv.aim, 'Target ' + g.target + (more > 0 ? ': ' + T.pts(more) + ' to go' : ': reached'));
    tv.rounds.forEach(function (row, k) {
      var r = g.played[k];
      var now = k + 1 === g.round && !g.over; // the cards still to come stay face down
      put(row.name, 'Round ' + (k + 1) + ': ' + (r ? r.name : now ? card.name : 'card face down'));
      put(row.score, r ? r.score + ': ' + boatsLine(r.boats, r.bonus) : now ? 'playing' : '');
    });
    var adjusted = ACCESS.filter(function (a) { return g.access && g.access[a[0]]; });
    put(tv.access, adjusted.length ? 'Access: ' + adjusted.map(function (a) { return a[1]; }).join('; ') : '');
  }

  var HOW = [
    'Work together to dock eight paper boats: three rounds, one shared score. In seating order, slide the' +
      ' next numbered boat from the card\u2019s launch zone with one gentle continuous push, releasing before' +
      ' the line. Boats stay where they stop and may be nudged.',
    'After eight launches score every boat: wholly inside INNER 2, wholly inside OUTER 1, anything else 0.' +
      ' Add the card\u2019s bonus (0 or 2; at most 18 a round).',
    'After three rounds: did the table reach its target out of 54?'
  ];

  T.games.paper_current = { title: 'Paper Current', render: render, table: table, how: HOW };
})();
