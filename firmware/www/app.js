// Tidebox phone page: takes a seat, follows the box's state, and hands the game to the chosen game's
// part of the page (games/<game>/page.js and page.css, fetched from the box once the reader has
// chosen the game, registered in Tidebox.games). It talks only to the box that served it, one request
// at a time (a Pico W has 5 TCP connections for up to 8 phones).
// Player text is always set as text, never as markup.
(function () {
  'use strict';
  var T = window.Tidebox; // kit.js: the request queue and the helpers both pages share
  var api = T.api, el = T.el, fill = T.fill, setText = T.setText, show = T.show, $ = T.$;
  var load = T.load, store = T.store, saveCsv = T.saveCsv, need = T.need, useStyle = T.useStyle;
  var TOKEN_KEY = 'tidebox.token';
  var HIDDEN_MS = 5000; // a phone in a pocket asks less often

  var GAMES = T.games; // each game's part registers here once it has come from the box (need, below)

  var token = load(TOKEN_KEY);
  T.seat = function () { return token; };
  var S = null; // the last full state
  var ver = null; // its version; null asks for a full state

  T.arrived = function () { if (S) render(); }; // a game's part came (or did not, and is asked again)

  var polling = false;
  var again = false;
  var pollTimer = 0;
  var fails = 0;

  // While the box does not answer: the notice stays in view wherever the player has scrolled, and
  // the page's controls are visibly off (inert: no tap, no focus), so nothing looks live that is not.
  function offline(on) {
    show('net', on);
    document.body.classList.toggle('offline', on);
    if (on) $('main').setAttribute('inert', ''); else $('main').removeAttribute('inert');
  }

  function poll() {
    clearTimeout(pollTimer);
    if (polling) return;
    polling = true;
    T.follow(S ? ver : null).then(function (r) {
      var d = r.data;
      var next = r.next;
      polling = false;
      if (r.cut) {
        next = 0; // a wait given up or cut short: asked again at once (kit.js: as a poll)
      } else if (r.status === 200 && typeof d.v === 'number' && r.token !== token) {
        ver = null; // asked as another seat (the token changed meanwhile): ask again as this one
        next = 0;
      } else if (r.status === 200 && typeof d.v === 'number') {
        fails = 0;
        offline(false);
        if ('box' in d) {
          if (took != null && !(d.seq > took)) took = null;
          S = d;
          ver = d.v;
          render();
        } else if (!S || d.v !== ver) {
          ver = null; // "unchanged" about a state we do not have: ask for all of it
          next = 0;
        }
      } else {
        fails += 1;
        if (fails > 1) offline(true);
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
  // Something changed on our side (a move answered, a seat taken or left): the page as the box has
  // it now, as soon as possible. A wait out for this seat brings any change the box took by itself,
  // so meanwhile the page is drawn again as it is (a refused move's reason, its buttons back), once
  // the move's own handlers have run; one asked as another seat is given up, and the whole state
  // asked for.
  function refresh() {
    if (T.isWaiting() && !T.stopWaiting(token)) {
      setTimeout(function () { if (S) render(); }, 0);
      return;
    }
    ver = null;
    if (polling) again = true; else poll();
  }
  function wake() {
    if (!document.hidden) poll();
  }
  // Back in view, or back on the network: a wait out since before may have died with the Wi-Fi
  // unnoticed, so it is given up and the box asked at once.
  function back() {
    if (document.hidden) return;
    if (!T.stopWaiting()) poll();
  }
  window.addEventListener('focus', wake);
  window.addEventListener('online', back);
  window.addEventListener('pageshow', back);
  document.addEventListener('visibilitychange', back);

  function failure(r) {
    if (r.data.error) return r.data.error;
    if (!r.status) return 'No answer from the box. Are you on its Wi-Fi? Try again.';
    return 'The box refused (' + r.status + '). Try again.';
  }

  // ---------------------------------------------------------------- moves
  // Every game's move for this phone's seat (POST /api/move). `seq` is the seq of the view the player
  // acted on (a move sent on a stale view is refused with 409); null sends none. Resolves the answer
  // with `say`, the one wording a player is shown for it: '' when the box took it, or when it was
  // refused only because this phone's own move on the same view was taken first (a double tap: the
  // player's move is made); the game moving on for a move sent on a stale view; otherwise the box's
  // reason as a sentence (failure's words when there is none). The whole state is asked for again
  // after every answer, so the page shows the game as it is now.
  var MOVED_ON = 'The game moved on: here it is as it is now.';
  // The seq of the view this phone's last move was taken on. The box's seq only grows within a game,
  // so a view at that seq or below is a new game: poll() forgets it then.
  var took = null;
  function move(name, args, seq) {
    var body = { move: name, args: args || {} };
    if (seq != null) body.seq = seq;
    return api('POST', '/api/move', body).then(function (r) {
      if (r.status === 200 && seq != null) took = seq;
      var why = r.data.error || '';
      r.say = r.status === 200 || (r.status === 409 && seq != null && seq === took) ? ''
        : r.status === 409 && (!why || /^the game moved on /.test(why)) ? MOVED_ON // the box's STALE
        : sentence(failure(r));
      refresh();
      return r;
    });
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
        setText(err, sentence(failure(r)));
      }
    });
  }
  // The box's reasons are clauses ("that name is taken at this table"): shown alone, a sentence.
  function sentence(text) {
    text = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(text) ? text : text + '.';
  }
  // A name's limit is said as it is typed (the box's name rule: 12 characters in every game), and a
  // longer one is never cut: the player shortens it.
  var NAME_MAX = +$('name').getAttribute('data-max');
  function tooLong(field, said) {
    var n = $(field).value.trim().length;
    setText(said, n > NAME_MAX ? 'Too long: ' + n + ' characters, at most ' + NAME_MAX + '.'
      : n ? n + ' of ' + NAME_MAX + ' characters.' : 'At most ' + NAME_MAX + ' characters.');
    return n > NAME_MAX;
  }
  function nameTooLong() { return tooLong('name', 'nameLen'); }
  $('name').addEventListener('input', nameTooLong);
  $('newName').addEventListener('input', function () { tooLong('newName', 'newNameLen'); });
  $('joinForm').addEventListener('submit', function (e) {
    e.preventDefault();
    var name = $('name').value.trim();
    if (!name) setText('joinErr', 'Type your name first.');
    else if (nameTooLong()) setText('joinErr', 'Shorten your name to ' + NAME_MAX + ' characters.');
    else enter('/api/join', { name: name }, 'joinBtn', 'joinErr');
  });
  // Between games a player renames themself or leaves the table (asked first); during a game the
  // page says to ask the reader (the box refuses both then, and says so too).
  $('renameForm').addEventListener('submit', function (e) {
    e.preventDefault();
    var name = $('newName').value.trim();
    if (!name) { setText('renameErr', 'Type the new name first.'); return; }
    if (tooLong('newName', 'newNameLen')) { setText('renameErr', 'Shorten the name to ' + NAME_MAX + ' characters.'); return; }
    $('renameBtn').disabled = true;
    setText('renameErr', '');
    api('POST', '/api/rename', { name: name }).then(function (r) {
      $('renameBtn').disabled = false;
      if (r.status === 200) { $('newName').value = ''; tooLong('newName', 'newNameLen'); refresh(); }
      else setText('renameErr', sentence(failure(r)));
    });
  });
  $('leaveBtn').addEventListener('click', function () { show('leaveAsk', true); $('leaveNo').focus(); });
  $('leaveNo').addEventListener('click', function () { show('leaveAsk', false); });
  $('leaveYes').addEventListener('click', function () {
    $('leaveYes').disabled = true;
    setText('leaveErr', '');
    api('POST', '/api/leave', {}).then(function (r) {
      $('leaveYes').disabled = false;
      show('leaveAsk', false);
      if (r.status === 200) {
        token = null;
        store(TOKEN_KEY, null);
        refresh();
      } else setText('leaveErr', sentence(failure(r)));
    });
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
    var view = !s.you ? 'join' : s.game && (s.box === 'play' || s.box === 'over') ? 'game' : 'lobby';
    // the chosen game's part of the page draws the game (games/<game>/page.js): asked for once the
    // reader has chosen the game (at the game menu none is: the last one's title and How to play go);
    // another game's part leaves no style or drawing behind
    var kind = s.box === 'choose' ? null : s.kind;
    var part = kind && GAMES[kind] || null;
    if (kind && !part) need(kind);
    if (part && useStyle(kind)) fill($('other'), []);
    setText('me', s.you ? 'You: ' + s.you.name : '');
    if (s.you) $('newName').placeholder = s.you.name;
    setText('brand', part ? part.title : 'Tidebox');
    show('join', view === 'join');
    show('lobby', view === 'lobby');
    show('other', view === 'game' && !!part);
    show('seatNote', view === 'game');
    renderHow(kind, part);
    // asked again whenever the box's screen changes: a game ended within a poll or two is never
    // seen as a game view, yet went into the night's scores on its way out
    if (view !== 'lobby' || s.box !== nightBox) nightAsked = false;
    nightBox = s.box;
    if (view === 'lobby' && !nightAsked) askTonight();
    if (view === 'join') renderJoin(s);
    else if (view === 'lobby') renderLobby(s, part);
    else if (part) part.render(s, $('other'));
  }

  // The chosen game's How to play, in every view once the reader has chosen it: its `how`, either
  // paragraphs or a function that fills the card. Built when the game changes, so it stays open or
  // closed across renders.
  var howKind = null;
  function renderHow(kind, part) {
    var d = $('rules');
    show('rules', !!(part && part.how));
    if (kind === howKind || !part || !part.how) return;
    howKind = kind;
    d.open = false;
    fill(d, [d.firstElementChild]); // its summary stays
    if (typeof part.how === 'function') part.how(d);
    else part.how.forEach(function (text) { d.appendChild(el('p', 'small', text)); });
  }

  function renderJoin(s) {
    var note = '';
    if (token) {
      note = 'The box no longer knows this phone\u2019s seat. Join again, or ask the reader for a rejoin code.';
    } else if (s.box === 'choose') {
      note = 'The reader is choosing the game on the box. Join now to be at the table.';
    } else if (s.box !== 'join') {
      note = 'A game is under way. Playing already? Ask the reader for a rejoin code.';
    }
    setText('joinNote', note);
    show('joinNote', !!note);
  }

  // The night's scores (GET /api/tonight: one game a line, oldest first), shown between games and
  // asked for again each time the table is back between games (a game only joins them on its way
  // out); a line that does not read is left out, as the box does.
  var night = [];
  var nightAsked = false;
  var nightBox = null; // the box's screen when they were last asked for
  function askTonight() {
    nightAsked = true;
    api('GET', '/api/tonight').then(function (r) {
      if (r.status === 0) nightAsked = false; // the box did not answer: asked again at the next view
      if (r.status !== 200) return;
      night = T.nightOf(r.text);
      renderTonight();
    });
  }
  function renderTonight() {
    show('tonight', night.length > 0);
    fill($('tonightList'), night.map(T.nightItem));
  }
  $('tonightCsv').addEventListener('click', function () {
    var rows = [['Game', 'Title', 'Ended early', 'Player', 'Points', 'Won']];
    night.forEach(function (g, k) {
      T.byPoints(g).forEach(function (i) {
        rows.push([k + 1, g.title || g.game, g.ended ? 'yes' : 'no', g.names[i], g.points[i],
          (g.winners || []).indexOf(i) >= 0 ? 'yes' : 'no']);
      });
    });
    saveCsv('tidebox-tonight.csv', rows);
  });


  function renderLobby(s, part) {
    // a game's part forgets what it kept for a game that is over (its `lobby`, if it has one)
    for (var kind in GAMES) if (GAMES[kind].lobby) GAMES[kind].lobby();
    var here = s.seats.filter(function (p) { return p.present; }).length;
    var title = part ? part.title : '';
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

  poll();
  // What a game's part may use besides kit.js's: its moves with their one wording, a way to ask for
  // the whole state again, the words for a failed request.
  T.move = move; T.refresh = refresh; T.failure = failure;
})();
