// The table screen (/table): a tablet, laptop or TV on the box's hotspot as the table's big screen.
// It takes no seat: it asks for the view a phone that has not joined gets, which holds only what is
// public, and follows the box as the phones do. At the join screen it shows the box's two QR codes
// and the names; at the game menu the games and the night's scores; in a game the game's own table
// view (its part's `table`, optional); always a copy of the box's panel in a corner.
(function () {
  'use strict';
  var T = window.Tidebox;
  var api = T.api, el = T.el, fill = T.fill, setText = T.setText, show = T.show, $ = T.$;
  var POLL_MS = 1000;
  var PANEL_TICKS = 3; // the panel's copy in its corner: asked for every third tick
  var PHASES = { choose: 'Game menu', join: 'Joining', setup: 'Setting up', play: 'Playing', over: 'Game over' };

  var S = null; // the last full view
  var ver = null;
  var fails = 0;
  var ticks = 0;
  var bigPanel = false; // the panel's copy shown large (a game without a table view of its own)
  var frame = null; // the panel's frame on screen
  var games = null; // [[id, title], ...] of /api/games
  var codesShown = false;
  var night = [];
  var nightFor = null; // the view's version the night's scores were asked at

  // The table screen only shows: a move from here is refused before it leaves.
  T.move = function () { return Promise.resolve({ status: 0, data: {}, say: 'The table screen does not play.' }); };
  T.refresh = function () { ver = null; };
  T.failure = function (r) { return r.data.error || 'No answer from the box.'; };
  T.arrived = function () { if (S) render(); };

  // ---------------------------------------------------------------- following the box
  function offline(on) {
    show('net', on);
    document.body.classList.toggle('offline', on);
  }
  // Follows the box's state (waiting for each change where the box lets it: kit.js follow).
  function tick() {
    T.follow(S ? ver : null).then(function (r) {
      var d = r.data;
      var next = r.next;
      if (r.cut) {
        next = 0;
      } else if (r.status === 200 && typeof d.v === 'number') {
        if (fails) codesShown = false; // after a restart or a power cut: the codes and the panel again
        if (fails) frame = null;
        fails = 0;
        offline(false);
        if ('box' in d) {
          S = d;
          ver = d.v;
          render();
          panel(); // the box's screen has most likely changed with it
        } else if (!S || d.v !== ver) {
          ver = null;
          next = 0;
        }
      } else {
        fails += 1;
        if (fails > 1) offline(true);
        next = 3000;
      }
      setTimeout(tick, next);
    });
  }
  // The panel's copy between changes (the reader's presses move the box's screen, not always its
  // state): every PANEL_TICKS seconds in its corner, every second while it is shown large. Each ask
  // is a connection, and a request the box answers through microdot costs its core about twice a
  // poll's time (make bench-pico).
  function panelTick() {
    ticks += 1;
    if (!fails && (bigPanel || ticks % PANEL_TICKS === 0)) panel();
    setTimeout(panelTick, POLL_MS);
  }
  // The box's panel; 204 when the frame on screen is still the one shown.
  function panel() {
    return api('GET', '/api/panel' + (frame != null ? '?f=' + frame : ''), null, true).then(function (r) {
      if (r.status !== 200 || !r.bytes) return;
      frame = r.frame;
      draw($('panel'), r.bytes, 128, 64, [120, 200, 255], [0, 0, 0]);
    });
  }
  // MONO_VLSB, as the box draws: each byte is 8 rows of one column, top row in the lowest bit.
  function draw(canvas, bytes, w, h, lit, dark) {
    var g = canvas.getContext('2d');
    var img = g.createImageData(w, h);
    for (var y = 0; y < h; y++) {
      for (var x = 0; x < w; x++) {
        var on = bytes[(y >> 3) * w + x] >> (y & 7) & 1;
        var c = on ? lit : dark, k = (y * w + x) * 4;
        img.data[k] = c[0]; img.data[k + 1] = c[1]; img.data[k + 2] = c[2]; img.data[k + 3] = 255;
      }
    }
    g.putImageData(img, 0, 0);
  }
  function codes() {
    codesShown = true;
    api('GET', '/api/codes', null, true).then(function (r) {
      if (r.status !== 200 || !r.bytes || r.bytes.length < 1024) { codesShown = false; return; }
      // the box draws dark modules on a lit square (scanners need dark on light)
      draw($('wifi_qr'), r.bytes.subarray(0, 512), 64, 64, [255, 255, 255], [0, 0, 0]);
      draw($('page_qr'), r.bytes.subarray(512), 64, 64, [255, 255, 255], [0, 0, 0]);
    });
  }
  function askGames() {
    games = [];
    api('GET', '/api/games').then(function (r) {
      games = r.status === 200 && Array.isArray(r.data) ? r.data : null;
      if (S) render();
    });
  }
  function askTonight() {
    nightFor = S.v;
    api('GET', '/api/tonight').then(function (r) {
      if (r.status !== 200) { nightFor = null; return; }
      night = T.nightOf(r.text);
      fill($('tonightList'), night.map(T.nightItem));
      show('tonight', night.length > 0);
    });
  }

  // ---------------------------------------------------------------- what the screen shows
  function seatItems(s) {
    return s.seats.map(function (p) { return el('li', p.present ? '' : 'left', p.name + (p.present ? '' : ' (left)')); });
  }
  function render() {
    var s = S;
    var kind = s.box === 'choose' ? null : s.kind;
    var part = kind && T.games[kind] || null;
    if (kind && !part) T.need(kind);
    var playing = s.box === 'play' || s.box === 'over';
    var table = playing && part && part.table;
    setText('brand', part ? part.title : 'Tidebox');
    setText('phase', PHASES[s.box] || '');
    show('join', s.box === 'join');
    show('menu', s.box === 'choose' || s.box === 'setup');
    show('game', !!table);
    show('plain', playing && !table);
    bigPanel = playing && !table;
    $('panelBox').className = bigPanel ? 'panel big' : 'panel';
    if (s.box === 'join') {
      setText('ssid', '\u201c' + s.ssid + '\u201d');
      var here = s.seats.filter(function (p) { return p.present; }).length;
      setText('seatsHead', here ? 'At the table: ' + here + (here === 1 ? ' player' : ' players') : 'Nobody has joined yet');
      fill($('seats'), seatItems(s));
      if (!codesShown) codes();
    } else {
      codesShown = false;
    }
    if (s.box === 'choose' || s.box === 'setup') {
      if (games == null) askGames();
      setText('menuHead', s.box === 'setup' && part ? part.title + ': the reader is choosing the options'
        : 'The reader is choosing a game');
      fill($('games'), (games || []).map(function (g) {
        var li = el('li', g[0] === s.kind ? 'chosen' : '', g[1]);
        if (g[0] === s.kind) li.setAttribute('aria-current', 'true');
        return li;
      }));
      if (nightFor == null || (s.box === 'choose' && nightFor !== s.v)) askTonight();
    } else {
      nightFor = null;
    }
    if (table) {
      T.useStyle(kind);
      part.table(s, $('game'));
    } else if (playing) {
      setText('plainHead', part ? part.title : 'A game is on');
      fill($('plainSeats'), seatItems(s));
    }
  }

  // ---------------------------------------------------------------- a screen that stays on
  // The Screen Wake Lock API where the browser has it; a lock is let go when the page is hidden,
  // so it is asked again each time the page is shown.
  function stayAwake() {
    if (document.hidden || !navigator.wakeLock) return;
    navigator.wakeLock.request('screen').catch(function () { /* refused: the screen may sleep */ });
  }
  document.addEventListener('visibilitychange', stayAwake);
  // Shown again: a wait out since before may have died unnoticed; given up, the box is asked anew.
  document.addEventListener('visibilitychange', function () { if (!document.hidden) T.stopWaiting(); });
  stayAwake();
  tick();
  panelTick();
})();
