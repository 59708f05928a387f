// What both of the box's pages share (the phones' page, app.js, and the table screen, table.js), and
// what a game's part of the page may use from them: one request at a time to the box, the helpers that
// only ever set text (never markup), and storage that survives a reload. Loaded first; each page adds
// its own members to window.Tidebox (a part's `render` for the phones, its `table` for the big screen).
(function () {
  'use strict';
  var T = window.Tidebox = {};
  function pts(n) { return n + (n === 1 ? ' point' : ' points'); }
  var TIMEOUT_MS = 6000; // a request the box never answers counts as an error
  var WAIT_TIMEOUT_MS = 30000; // ... and one waiting for a change, which the box answers within 20 s
  // The seat token sent with every request: the phones' page sets it (the table screen has none).
  T.seat = function () { return null; };
  function $(id) { return document.getElementById(id); }

  // ---------------------------------------------------------------- storage
  // localStorage keeps the seat across reloads, lost Wi-Fi and a locked screen. Where it is not
  // available (some private modes), the seat lasts as long as the page.
  // An address ending in ?phone=N (the simulator's links) makes this tab phone N, with keys of its
  // own, so one browser can be several phones at a table. Only a label: a token is never in an address.
  var PHONE = (/[?&]phone=(\d{1,2})(?:&|$)/.exec(location.search) || [])[1];
  var mem = {};
  function load(key) {
    if (PHONE) key += '.' + PHONE;
    try { return localStorage.getItem(key); } catch (e) { return key in mem ? mem[key] : null; }
  }
  function store(key, value) {
    if (PHONE) key += '.' + PHONE;
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
  // A record table in a game's part: a head row, then rows whose first cell heads its row; in a box
  // that scrolls sideways on a narrow phone.
  function sheet(head, rows) {
    var t = el('table', 'sheet qd'), tr = el('tr'), thead = el('thead'), body = el('tbody');
    head.forEach(function (h) { tr.appendChild(el('th', null, h)); });
    thead.appendChild(tr);
    rows.forEach(function (row) {
      var r = el('tr');
      row.forEach(function (c, k) { r.appendChild(el(k ? 'td' : 'th', null, String(c))); });
      body.appendChild(r);
    });
    fill(t, [thead, body]);
    var wrap = el('div', 'scroll');
    wrap.appendChild(t);
    return wrap;
  }
  // The button that prints a game's record sheet (hidden on paper).
  function printButton() {
    var b = el('button', 'ghost noprint', 'Print record sheet');
    b.type = 'button';
    b.addEventListener('click', function () { window.print(); });
    return b;
  }

  function list(names) {
    if (names.length < 2) return names.join('');
    return names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
  }

  // ---------------------------------------------------------------- talking to the box
  var queue = [];
  var busy = false;

  // Every request goes through one queue: never two at once. With `binary`, the answer's bytes are
  // its `bytes` (a Uint8Array) and its X-Frame header its `frame` (the table screen's panel copy).
  function api(method, path, body, binary) {
    return new Promise(function (resolve) {
      queue.push([method, path, body, resolve, binary]);
      pump();
    });
  }
  // A 503 is the box saying it did nothing and to try again (all five connections taken, or too
  // little heap for now): the page asks again itself after a second, a few times, before the player
  // is told.
  var BUSY_TRIES = 3;
  function pump() {
    if (busy || !queue.length) return;
    busy = true;
    var job = queue.shift();
    var tries = 1;
    function done(r) {
      if (r.status === 503 && tries < BUSY_TRIES) {
        tries += 1;
        setTimeout(function () { send(job[0], job[1], job[2], job[4]).then(done); }, 1000);
        return;
      }
      busy = false;
      job[3](r);
      // The next request goes out after this answer's handlers have run (a join's token is then
      // stored before the poll queued behind it is sent).
      setTimeout(pump, 0);
    }
    send(job[0], job[1], job[2], job[4]).then(done);
  }
  // The box's next change: `GET /api/state?v=N&wait=1`, which the box holds until its version moves
  // past N (then the whole view), or answers {"v": N} after a while; on stock firmware at once.
  // Sent beside the queue, so that a move is never stuck behind it. Returns {answer: a promise like
  // api's, token: the seat it was asked for, at: when, abort()}: an aborted one resolves status 0.
  function waitChange(ver) {
    var ctl = typeof AbortController === 'function' ? new AbortController() : null;
    return {
      answer: send('GET', '/api/state?v=' + ver + '&wait=1', null, false, ctl, WAIT_TIMEOUT_MS),
      token: T.seat(),
      at: Date.now(),
      abort: function () { if (ctl) ctl.abort(); }
    };
  }
  // Following the box: the next answer about its state, for the version `ver` the page has (null:
  // the whole view). It waits for a change where it can; a wait cut short (the box restarting, a
  // captive-portal sheet that drops held requests) is answered with r.cut, and the next few asks
  // are plain polls before waiting again. r.next: how long to leave before the next ask (a change
  // waited for: none; the box answered a wait at once, as stock firmware does: a poll's second).
  var POLL_MS = 1000;
  var waiting = null; // the wait now out, if any
  var cuts = 0; // waits cut short in a row
  var pollsLeft = 0; // plain polls to make before waiting again
  function follow(ver) {
    if (ver == null || pollsLeft > 0) {
      if (ver != null) pollsLeft -= 1;
      return api('GET', '/api/state' + (ver != null ? '?v=' + ver : '')).then(function (r) {
        r.next = POLL_MS;
        return r;
      });
    }
    var w = waiting = waitChange(ver);
    return w.answer.then(function (r) {
      waiting = null;
      if (w.aborted) {
        r.cut = true;
      } else if (r.status === 200) {
        cuts = 0;
        r.next = 'box' in r.data || Date.now() - w.at >= POLL_MS ? 0 : POLL_MS;
        return r;
      } else {
        cuts += 1;
        pollsLeft = 5 * Math.min(cuts, 12);
        r.cut = true;
      }
      r.next = 0;
      return r;
    });
  }
  // Gives up the wait now out (when `token` is given: only if it was asked for another seat); true
  // if there was one. Its answer comes back with r.cut.
  function stopWaiting(token) {
    if (!waiting || (arguments.length && waiting.token === token)) return false;
    waiting.aborted = true;
    waiting.abort();
    return true;
  }
  function isWaiting() { return !!waiting; }
  // Resolves {status, data, text, token}; status 0 means the box could not be reached; data is the
  // answer's JSON object ({} if it is none), text the answer as it came; token is the seat token the
  // request was sent with.
  function send(method, path, body, binary, ctl, timeout) {
    var sent = T.seat();
    if (!ctl) ctl = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctl) ctl.abort(); }, timeout || TIMEOUT_MS);
    var headers = {};
    var opts = { method: method, headers: headers, cache: 'no-store' };
    if (sent) headers['X-Seat-Token'] = sent;
    if (ctl) opts.signal = ctl.signal;
    if (body) {
      headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (res) {
      if (binary) {
        return res.arrayBuffer().then(function (buf) {
          return { status: res.status, data: {}, bytes: new Uint8Array(buf), frame: res.headers.get('X-Frame') };
        });
      }
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { /* not JSON */ }
        return { status: res.status, data: data && typeof data === 'object' ? data : {}, text: text };
      });
    }).catch(function () {
      return { status: 0, data: {} };
    }).then(function (r) {
      clearTimeout(timer);
      r.token = sent;
      return r;
    });
  }

  // A table saved as a CSV file: the night's scores, a game's record sheet. Safari asks "Download?"
  // first: the file's address lives until the next save, not a second.
  var csvUrl = '';
  function saveCsv(file, rows) {
    var text = rows.map(function (row) {
      return row.map(function (c) {
        c = String(c);
        return /[",\r\n]/.test(c) ? '"' + c.replace(/"/g, '""') + '"' : c;
      }).join(',');
    }).join('\r\n') + '\r\n';
    var a = el('a');
    if (csvUrl) URL.revokeObjectURL(csvUrl);
    a.href = csvUrl = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
    a.download = file;
    if (!('download' in a)) a.target = '_blank'; // an older Safari shows the text instead
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  // The night's scores (GET /api/tonight: one JSON object a game, a line each, oldest first); a line
  // that does not read is left out, as the box does.
  function nightOf(text) {
    return (text || '').split('\n').map(function (line) {
      try { return JSON.parse(line); } catch (e) { return null; }
    }).filter(function (g) { return g && g.names && g.points; });
  }
  function names(list) {
    return list.length < 3 ? list.join(' and ') : list.slice(0, -1).join(', ') + ' and ' + list[list.length - 1];
  }
  function outcome(g) {
    if (g.ended) return 'ended early';
    var won = (g.winners || []).map(function (i) { return g.names[i]; });
    if (!won.length) return 'nobody won';
    if (won.length === g.names.length && won.length > 1) return 'everyone won';
    return names(won) + (won.length === 1 ? ' won' : ' tied');
  }
  function byPoints(g) {
    return g.names.map(function (n, i) { return i; }).sort(function (a, b) {
      return g.points[b] - g.points[a] || a - b;
    });
  }
  // One game of the night as a list item: its title, who won, everyone's points.
  function nightItem(g) {
    var li = el('li');
    li.appendChild(el('strong', null, g.title || g.game));
    li.appendChild(el('span', null, ': ' + outcome(g) + '. '));
    li.appendChild(el('span', 'small', byPoints(g).map(function (i) {
      return g.names[i] + ' ' + g.points[i];
    }).join(' \u00b7 ')));
    return li;
  }

  T.games = {};
  T.arrived = function () {};
  // ---------------------------------------------------------------- the games' parts
  // Both pages fetch them; each page says what it does once one has come (T.arrived).
  // A game's part (its script, with its style inside) comes from the box once the reader has chosen
  // the game: GET /part/<game>.js, through the same queue. It runs once and registers itself in
  // T.games; it calls Tidebox.style first, and the style of the game being played is the only one on.
  var asked = {}; // game -> the part's request while it is on its way
  var styles = {}; // game -> its CSS
  var styled = null; // the game whose CSS is on
  var RETRY_MS = 3000; // a part that did not come is asked for again
  function need(kind) {
    if (T.games[kind]) return Promise.resolve(T.games[kind]);
    if (!asked[kind]) {
      asked[kind] = api('GET', '/part/' + encodeURIComponent(kind) + '.js').then(function (r) {
        delete asked[kind];
        if (r.status === 200 && !T.games[kind]) {
          var code = document.createElement('script');
          code.textContent = r.text; // the box's own file, as the page itself
          document.head.appendChild(code);
          document.head.removeChild(code);
        }
        if (!T.games[kind]) setTimeout(T.arrived, RETRY_MS);
        else T.arrived();
        return T.games[kind] || null;
      });
    }
    return asked[kind];
  }
  function style(kind, css) { styles[kind] = css; }
  function useStyle(kind) {
    if (kind === styled) return false;
    styled = kind;
    var e = $('partStyle');
    if (!e) {
      e = el('style');
      e.id = 'partStyle';
      document.head.appendChild(e); // after the shared style: the game's rules follow it
    }
    e.textContent = styles[kind] || '';
    return true;
  }
 // each game's part of the page registers here once it has come from the box
  T.api = api; T.el = el; T.fill = fill; T.setText = setText; T.show = show; T.pts = pts;
  T.list = list; T.sheet = sheet; T.printButton = printButton; T.$ = $; T.load = load;
  T.store = store; T.saveCsv = saveCsv; T.follow = follow; T.stopWaiting = stopWaiting; T.isWaiting = isWaiting;
  T.nightOf = nightOf; T.need = need; T.style = style; T.useStyle = useStyle; T.nightItem = nightItem; T.byPoints = byPoints;
})();
