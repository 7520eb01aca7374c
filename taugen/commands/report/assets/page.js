// taugen report: draws each cluster's topology as a zoomable icicle. Written for this page; no library.
(function () {
  'use strict';
  // §2's levels; a cluster that declares its own (R42) sends its Topology's as `levels`, [name, label] each
  var LEVELS = ['site', 'network-domain', 'accelerator-domain', 'host'];
  var LABELS = ['tau.azure.com/site', 'tau.azure.com/network-domain', 'tau.azure.com/accelerator-domain'];
  var PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#e15759', '#76b7b2', '#9c755f', '#edc948',
    '#bab0ac', '#ff9da7', '#2f4b7c', '#a05195'];
  var MIN_PX = 2;   // a domain narrower than this is merged into its parent's "+N" block
  var LIST = 200;   // rows listed in the selection panel
  var data = JSON.parse(document.getElementById('taugen-data').textContent);

  function colour(i) { return PALETTE[i % PALETTE.length]; }
  var NUMBER = new Intl.NumberFormat('en-US');  // one formatter: toLocaleString builds one per call
  function fmt(n) { return NUMBER.format(n); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Decode the compact tree (see taugen/report/payload.py) into nodes with totals. Plain loops and
  // one node shape: this is most of the load time of a 100,000-host page.
  function Node(name, level, parent) {
    this.name = name; this.level = level; this.parent = parent; this.kids = null; this.h = null;
    this.weight = 0; this.gpus = 0; this.hosts = 0; this.ready = 0; this.nr = 0; this.cls = null;
    this.marks = 0; this.placed = 0; this.sets = null;
  }

  function zeros(n) { var a = new Array(n); for (var i = 0; i < n; i++) a[i] = 0; return a; }  // GPUs per class

  function byWeight(a, b) { return b.weight - a.weight || (a.name < b.name ? -1 : 1); }

  function decode(c) {
    var byName = new Map(), shared = {}, EMPTY = [], K = c.classes.length, NONE = zeros(K);
    var D = c.levels ? c.levels.length : LABELS.length;  // domain levels above the hosts
    function host(h, parent) {
      var n = new Node(h[0], D, parent), mark = c.marks[h[0]], ghost = mark !== undefined && mark[0] === 'removed';
      n.h = { cls: h[1], gpus: h[2], ready: h[3] === 1, set: h[4], mark: mark ? mark[0] : '',
        detail: mark ? mark[1] : '', runs: EMPTY };
      if (ghost) { n.weight = c.typical[h[1]] || 1; n.cls = NONE; }
      else {
        var key = h[1] + ':' + h[2];  // hosts share their (class, GPUs) totals: read only
        if (!shared[key]) { shared[key] = zeros(K); shared[key][h[1]] = h[2]; }
        n.cls = shared[key];
        n.weight = Math.max(h[2], 1); n.gpus = h[2]; n.hosts = 1; n.ready = h[3]; n.nr = 1 - h[3];
      }
      n.marks = mark ? 1 : 0;
      byName.set(h[0], n);
      return n;
    }
    function total(n) {
      n.cls = zeros(K);
      for (var i = 0; i < n.kids.length; i++) {
        var k = n.kids[i];
        n.weight += k.weight; n.gpus += k.gpus; n.hosts += k.hosts; n.ready += k.ready; n.nr += k.nr;
        n.marks += k.marks;
        for (var j = 0; j < K; j++) n.cls[j] += k.cls[j];
      }
      if (n.kids.length > 1) n.kids.sort(byWeight);
    }
    function domain(d, level, parent) {
      var n = new Node(d[0], level, parent), list = d[1], i;
      n.kids = new Array(list.length);
      for (i = 0; i < list.length; i++) n.kids[i] = level === D - 1 ? host(list[i], n) : domain(list[i], level + 1, n);
      if (n.name === 0) n.name = 'singleton-' + n.kids[0].name;
      total(n);
      return n;
    }
    var root = new Node(c.name, -1, null);
    root.kids = c.sites.map(function (s) { return domain(s, 0, root); });
    total(root);
    c.runs.forEach(function (r) {
      r[5].forEach(function (name, rank) {
        var n = byName.get(name);
        if (!n) return;
        if (n.h.runs === EMPTY) n.h.runs = [];
        n.h.runs.push(r[0] + '#' + rank);
        for (var p = n; p; p = p.parent) p.placed++;
        r.hosts = r.hosts || []; r.hosts.push(n);
      });
    });
    return {
      root: root,
      depth: D,
      host: function (name) { return byName.get(name); },
      domain: function (name) { return find(root, name, D); }
    };
  }

  function find(root, name, depth) {  // a domain by name, broad levels first
    var queue = root.kids.slice();
    for (var i = 0; i < queue.length; i++) {
      var n = queue[i];
      if (n.name === name) return n;
      if (n.level < depth - 1) for (var j = 0; j < n.kids.length; j++) queue.push(n.kids[j]);
    }
    return null;
  }

  function gradient(cls, total) {
    var keys = [];
    for (var i = 0; i < cls.length; i++) if (cls[i] > 0) keys.push(i);
    if (keys.length === 0 || total === 0) return '#8a93a3';
    if (keys.length === 1) return colour(keys[0]);
    var at = 0, stops = [];
    keys.forEach(function (k) {
      var next = at + 100 * cls[k] / total;
      stops.push(colour(k) + ' ' + at.toFixed(2) + '% ' + next.toFixed(2) + '%');
      at = next;
    });
    return 'linear-gradient(90deg, ' + stops.join(', ') + ')';
  }

  function Viz(section, cluster) {
    this.c = cluster;
    this.t = decode(cluster);
    this.L = cluster.levels ? cluster.levels.map(function (l) { return l[0]; }).concat(['host']) : LEVELS;
    this.K = cluster.levels ? cluster.levels.map(function (l) { return l[1]; }) : LABELS;
    this.box = section.querySelector('.icicle');
    this.panel = section.querySelector('.panel');
    this.crumbs = section.querySelector('.crumbs');
    this.tip = section.querySelector('.tip');
    this.focus = this.t.root.kids.length === 1 ? this.t.root.kids[0] : this.t.root;
    this.selected = null;
    this.run = -1;
    this.legend(section.querySelector('.legend'));
    this.wire(section);
    this.open(decodeURIComponent(location.hash.slice(1)));
    this.draw();
  }

  // A link may name a host or a domain after '#': the page opens on it.
  Viz.prototype.open = function (name) {
    if (!name) return;
    var n = this.t.host(name) || this.t.domain(name);
    if (!n) return;
    this.focus = n.kids ? n : n.parent;
    this.select(n);
  };

  Viz.prototype.legend = function (box) {
    var self = this;
    this.c.classes.forEach(function (name, i) {
      var item = el('span');
      var swatch = el('i'); swatch.style.background = colour(i);
      item.appendChild(swatch); item.appendChild(document.createTextNode(name));
      box.appendChild(item);
    });
    var nr = el('span'); nr.appendChild(el('i', 'nr')); nr.appendChild(document.createTextNode('not Ready'));
    box.appendChild(nr);
    this.c.runs.forEach(function (r, i) {
      var b = el('button', 'run', r[0] + (r[2] === 'admitted' ? '' : ' (' + r[2] + ')'));
      b.type = 'button'; b.dataset.run = r[0];
      b.addEventListener('click', function () { self.pick(i, b); });
      box.appendChild(b);
    });
  };

  Viz.prototype.pick = function (i, button) {
    var buttons = button.parentNode.querySelectorAll('button.run');
    for (var j = 0; j < buttons.length; j++) buttons[j].classList.remove('on');
    this.run = this.run === i ? -1 : i;
    if (this.run >= 0) {
      button.classList.add('on');
      var hosts = this.c.runs[i].hosts || [];
      if (hosts.length) this.focus = this.common(hosts);
    }
    this.draw();
  };

  Viz.prototype.common = function (hosts) {
    var path = [];
    for (var p = hosts[0].parent; p; p = p.parent) path.unshift(p);
    var depth = path.length;
    hosts.forEach(function (h) {
      var mine = [];
      for (var p = h.parent; p; p = p.parent) mine.unshift(p);
      while (depth > 0 && mine[depth - 1] !== path[depth - 1]) depth--;
    });
    return path[Math.max(depth - 1, 0)];
  };

  Viz.prototype.wire = function (section) {
    var self = this;
    this.box.addEventListener('click', function (e) {
      var t = e.target.closest('[data-i]');
      if (t) self.activate(self.shown[+t.dataset.i]);
    });
    this.box.addEventListener('mousemove', function (e) {
      var t = e.target.closest('[data-i]');
      if (!t) { self.tip.hidden = true; return; }
      self.tip.textContent = self.summary(self.shown[+t.dataset.i]);
      self.tip.hidden = false;
      self.tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 430) + 'px';
      self.tip.style.top = (e.clientY + 14) + 'px';
    });
    this.box.addEventListener('mouseleave', function () { self.tip.hidden = true; });
    section.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && self.focus.parent) { self.focus = self.focus.parent; self.draw(); }
    });
    var find = section.querySelector('.find input');
    find.addEventListener('change', function () {
      var n = self.t.host(find.value.trim());
      find.setCustomValidity(n ? '' : 'no such host');
      if (n) { self.focus = n.parent; self.select(n); self.draw(); }
    });
    this.panel.addEventListener('click', function (e) {
      var b = e.target.closest('button[data-pick]');
      if (!b) return;
      var n = self.kidNamed(b.dataset.pick) || self.t.host(b.dataset.pick);
      if (n) self.activate(n);
    });
  };

  Viz.prototype.kidNamed = function (name) {
    var kids = (this.selected && this.selected.kids) || [];
    for (var i = 0; i < kids.length; i++) if (kids[i].name === name) return kids[i];
    return null;
  };

  // A click: on the focused domain, zoom out; on an aggregate, select its parent; else select and zoom in.
  Viz.prototype.activate = function (item) {
    if (item.agg) { this.select(item.parent); if (item.parent !== this.focus) this.focus = item.parent; }
    else if (item === this.focus && item.parent) { this.focus = item.parent; this.select(item.parent); }
    else { this.select(item); if (item.kids) this.focus = item; }
    this.draw();
  };

  Viz.prototype.summary = function (n) {
    if (n.agg) {
      return '+' + fmt(n.count) + ' more ' + this.L[n.level] + (n.count > 1 ? 's' : '') + ': ' + fmt(n.hosts) +
        ' hosts, ' + fmt(n.gpus) + ' GPUs, ' + fmt(n.ready) + ' Ready slots (zoom in to see them)';
    }
    var text = (n.level >= 0 ? this.L[n.level] + ' ' : 'cluster ') + n.name + ': ';
    if (n.h) {
      return text + this.c.classes[n.h.cls] + ', ' + n.h.gpus + ' GPUs, ' +
        (n.h.mark === 'removed' ? 'removed by the change' : n.h.ready ? 'Ready' : 'not Ready') +
        (n.h.mark && n.h.mark !== 'removed' ? ', ' + n.h.mark : '') + (n.h.runs.length ? ', runs ' + n.h.runs.join(' ') : '');
    }
    return text + fmt(n.hosts) + ' hosts, ' + fmt(n.gpus) + ' GPUs, ' + fmt(n.ready) + ' Ready slots' +
      (n.nr ? ', ' + fmt(n.nr) + ' not Ready' : '') + (n.marks ? ', ' + fmt(n.marks) + ' changed hosts' : '') +
      (n.placed ? ', ' + fmt(n.placed) + ' ranks placed' : '');
  };

  Viz.prototype.draw = function () {
    var self = this, box = this.box, W = box.clientWidth || 1200, started = performance.now();
    var D = this.t.depth, rows = this.focus.level < 0 ? D + 2 : D + 1 - this.focus.level;  // D levels, hosts, cluster
    var H = parseFloat(getComputedStyle(box).getPropertyValue('--row')) || 60;
    var frag = document.createDocumentFragment(), runHosts = {};
    if (this.run >= 0) (this.c.runs[this.run].hosts || []).forEach(function (h) { runHosts[h.name] = true; });
    this.shown = [];
    function block(n, x, w, row, span) {
      var b = el(n.agg ? 'div' : 'button', n.agg ? 'agg' : 'dom' + (n.h ? ' host' : ''));
      b.dataset.i = self.shown.push(n) - 1;
      b.dataset.level = n.level < 0 ? 'cluster' : self.L[n.level];
      b.style.left = x + 'px'; b.style.width = Math.max(w, 1) + 'px';
      b.style.top = row * H + 'px'; b.style.height = span * H + 'px';
      if (n.agg) {
        b.dataset.count = n.count; b.setAttribute('aria-label', self.summary(n));
        b.style.background = gradient(n.cls, n.gpus);
      }
      else {
        b.type = 'button';
        b.setAttribute('aria-label', self.summary(n));
        if (n.h) {
          b.dataset.host = n.name; b.dataset.class = self.c.classes[n.h.cls]; b.dataset.ready = String(n.h.ready);
          b.style.background = colour(n.h.cls);
          if (!n.h.ready) b.classList.add('nr');
          if (n.h.mark) b.classList.add('mark-' + n.h.mark);
          if (n.h.runs.length) b.classList.add('placed');
          if (runHosts[n.name]) b.classList.add('hl');
        } else {
          b.dataset.name = n.name;
          b.style.background = gradient(n.cls, n.gpus);
          if (n.nr) b.classList.add('has-nr');
          if (n.marks) b.classList.add('has-marks');
        }
        if (n === self.selected) b.classList.add('sel');
      }
      if (w > 34) b.textContent = n.agg ? '+' + fmt(n.count) : n.name + (w > 140 && !n.h ? ' · ' + fmt(n.gpus) + ' GPUs' : '');
      frag.appendChild(b);
    }
    // Children are sorted widest first: the first one narrower than MIN_PX starts the tail that is
    // merged into one block, whose totals are the parent's less the drawn children's. So a draw
    // visits the drawn domains only, never the 100,000 hosts of a large fleet.
    function place(n, x, w, row) {
      block(n, x, w, row, n.kids ? 1 : rows - row);
      if (!n.kids || n.weight === 0) return;
      var cx = x, i, j, drawn = { hosts: 0, gpus: 0, ready: 0, cls: zeros(n.cls.length) };
      for (i = 0; i < n.kids.length; i++) {
        var k = n.kids[i], kw = w * k.weight / n.weight;
        if (kw < MIN_PX) break;
        place(k, cx, kw, row + 1);
        cx += kw; drawn.hosts += k.hosts; drawn.gpus += k.gpus; drawn.ready += k.ready;
        for (j = 0; j < k.cls.length; j++) drawn.cls[j] += k.cls[j];
      }
      if (i === n.kids.length) return;
      var tail = { agg: true, parent: n, level: n.kids[i].level, count: n.kids.length - i, hosts: n.hosts - drawn.hosts,
        gpus: n.gpus - drawn.gpus, ready: n.ready - drawn.ready, cls: zeros(n.cls.length) };
      for (j = 0; j < n.cls.length; j++) tail.cls[j] = n.cls[j] - drawn.cls[j];
      block(tail, cx, x + w - cx, row + 1, rows - row - 1);
    }
    place(this.focus, 0, W, 0);
    box.style.height = rows * H + 2 + 'px';
    box.textContent = '';
    box.appendChild(frag);
    this.path();
    document.documentElement.dataset.drawMs = String(Math.round(performance.now() - started));  // measured in README
  };

  Viz.prototype.path = function () {
    var self = this, parts = [];
    for (var p = this.focus; p; p = p.parent) parts.unshift(p);
    this.crumbs.textContent = '';
    parts.forEach(function (p, i) {
      if (i) self.crumbs.appendChild(el('span', '', ' › '));
      var b = el('button', '', p.level < 0 ? 'cluster ' + p.name : p.name);
      b.type = 'button';
      b.addEventListener('click', function () { self.focus = p; self.select(p); self.draw(); });
      self.crumbs.appendChild(b);
    });
  };

  // The labels every host below n carries: its path's level labels, and the labels shared by the
  // (few) label sets of its hosts. The set indices of a domain are collected once and kept.
  Viz.prototype.labels = function (n) {
    var self = this, out = {}, ids = setsOf(n), common = null;
    for (var p = n.h ? n.parent : n; p && p.level >= 0; p = p.parent) out[self.K[p.level]] = p.name;
    ids.forEach(function (id) {
      var own = self.c.sets[id];
      if (common === null) { common = {}; for (var k in own) common[k] = own[k]; }
      else for (var key in common) if (own[key] !== common[key]) delete common[key];
    });
    for (var k2 in common || {}) out[k2] = common[k2];
    return out;
  };

  function setsOf(n) {
    if (n.h) return [n.h.set];
    if (n.sets) return n.sets;
    var seen = [], stack = [n], m, i;
    while (stack.length) {
      m = stack.pop();
      if (m.h) seen[m.h.set] = 1;
      else if (m.sets) for (i = 0; i < m.sets.length; i++) seen[m.sets[i]] = 1;
      else for (i = 0; i < m.kids.length; i++) stack.push(m.kids[i]);
    }
    n.sets = [];
    for (i = 0; i < seen.length; i++) if (seen[i]) n.sets.push(i);
    return n.sets;
  }

  Viz.prototype.select = function (n) {
    this.selected = n;
    var panel = this.panel, self = this;
    panel.textContent = '';
    panel.appendChild(el('h4', '', (n.level < 0 ? 'cluster' : this.L[n.level]) + ' ' + n.name));
    var dl = el('dl');
    function row(k, v) { dl.appendChild(el('dt', '', k)); dl.appendChild(el('dd', '', v)); }
    if (n.h) {
      row('gpu-class', this.c.classes[n.h.cls]); row('GPUs', fmt(n.h.gpus));
      row('Ready', n.h.mark === 'removed' ? 'removed by the change' : n.h.ready ? 'yes' : 'no');
      if (n.h.mark) row('change', n.h.mark + (n.h.detail ? ': ' + n.h.detail : ''));
      if (n.h.runs.length) row('runs', n.h.runs.join(', '));
    } else {
      row('hosts', fmt(n.hosts)); row('GPUs', fmt(n.gpus)); row('Ready slots', fmt(n.ready)); row('not Ready', fmt(n.nr));
      row('GPUs by class', self.c.classes.map(function (name, k) { return n.cls[k] ? name + ' ' + fmt(n.cls[k]) : ''; })
        .filter(Boolean).join(', '));
      if (n.marks) row('changed hosts', fmt(n.marks));
      if (n.placed) row('ranks placed', fmt(n.placed));
    }
    var labels = this.labels(n);
    row('labels', Object.keys(labels).sort().map(function (k) { return k + '=' + labels[k]; }).join('\n') || '—');
    dl.lastChild.style.whiteSpace = 'pre-line';
    panel.appendChild(dl);
    if (n.kids) panel.appendChild(this.listing(n));
  };

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }

  // Built as one string: a 500-row table from createElement calls is slow on a large fleet.
  Viz.prototype.listing = function (n) {
    var self = this, t = el('table'), hosts = n.kids[0].h !== null;
    var head = hosts ? ['host', 'class', 'GPUs', 'Ready'] : ['domain', 'hosts', 'GPUs', 'Ready slots'];
    var html = ['<caption>' + esc((hosts ? 'Hosts' : self.L[n.level + 1] + 's') + ' (' + fmt(n.kids.length) + ')' +
      (n.kids.length > LIST ? ', the first ' + LIST : '')) + '</caption><tr>'];
    head.forEach(function (h) { html.push('<th scope="col">' + h + '</th>'); });
    html.push('</tr>');
    n.kids.slice(0, LIST).forEach(function (k) {
      var cells = hosts ? [self.c.classes[k.h.cls], fmt(k.h.gpus), k.h.mark === 'removed' ? 'removed' : k.h.ready ? 'yes' : 'no']
        : [fmt(k.hosts), fmt(k.gpus), fmt(k.ready)];
      html.push('<tr><td><button type="button" data-pick="' + esc(k.name) + '">' + esc(k.name) + '</button></td><td>' +
        cells.map(esc).join('</td><td>') + '</td></tr>');
    });
    t.innerHTML = html.join('');
    return t;
  };

  var sections = document.querySelectorAll('section.cluster');
  for (var i = 0; i < sections.length; i++) new Viz(sections[i], data.clusters[i]);
  document.documentElement.dataset.renderMs = String(Math.round(performance.now()));
})();
