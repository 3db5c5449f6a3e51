//===- PageScript.cpp - The HTML page's style and script ------------------===//
///
/// The page's CSS and its one script, vanilla JavaScript with no library, so
/// the page stays one file that works offline. The script reads the JSON the
/// page embeds (#profile-data, #timeline-data) and builds: the sortable tables,
/// the collapsible call tree, the source view of the selected region, the
/// threads' heat map and the zoomable timeline (docs/REPORT.md, "The HTML
/// page"). Elements carry data-* attributes that the browser test reads
/// (tests/report/browser).
///
//===----------------------------------------------------------------------===//

#include "pomp/report/Html.h"

namespace pomp::report {

const char *const PageStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; }
p.meta, p.note, div.note { color: #555; margin: 0.3em 0; }
div.warning { border: 2px solid #c60; background: #fff4e5; padding: 0.3em 0.8em; margin: 0.6em 0; }
table.report { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.report th, table.report td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; }
table.report th { background: #f3f3f3; text-align: left; white-space: nowrap; }
table.report.sortable th { cursor: pointer; user-select: none; }
table.report th.sorted-desc::after { content: " \25BE"; }
table.report th.sorted-asc::after { content: " \25B4"; }
table.report td.num { text-align: right; white-space: nowrap; }
table.report tr.wait td.region { color: #a0522d; }
table.report tbody tr:hover { background: #f7f7ff; cursor: pointer; }
table.report tr.selected { background: #e6ecff; }
table#compare tr.slower td:nth-child(4) { color: #b00; }
table#compare tr.faster td:nth-child(4) { color: #070; }
table#compare tr.only-a td.region::after { content: "  (only in A)"; color: #777; }
table#compare tr.only-b td.region::after { content: "  (only in B)"; color: #777; }
td.bars { width: 160px; }
div.bar { height: 5px; margin: 1px 0; min-width: 1px; }
div.bar.a { background: #8aa4d6; }
div.bar.b { background: #e0965a; }
#calltree { font-variant-numeric: tabular-nums; border: 1px solid #ddd; max-height: 36em;
            overflow: auto; padding: 2px 0; }
#calltree .tn { display: flex; align-items: center; white-space: nowrap; padding: 1px 4px; }
#calltree .tn:hover { background: #f7f7ff; }
#calltree .tn.selected { background: #e6ecff; }
#calltree .tog { width: 1.2em; cursor: pointer; color: #555; flex: none; }
#calltree .name { cursor: pointer; flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; }
#calltree .name.wait { color: #a0522d; }
#calltree .num { width: 7.5em; text-align: right; flex: none; color: #333; }
#calltree .share { width: 80px; height: 8px; background: #eee; margin-left: 8px; flex: none; }
#calltree .share div { height: 8px; background: #6b8fd6; }
#calltree .hidden-note { color: #777; font-style: italic; }
#calltree .head { font-weight: 600; background: #f3f3f3; }
#source pre { background: #fafafa; border: 1px solid #ddd; padding: 4px 0; overflow: auto;
              font: 12px/1.35 ui-monospace, monospace; margin: 0.3em 0; }
#source .ln { display: inline-block; width: 4em; text-align: right; color: #999;
              padding-right: 0.8em; user-select: none; }
#source .line { display: block; padding: 0 6px; }
#source .line.hl { background: #fff3c4; }
#heatmap canvas, #timeline canvas { border: 1px solid #ddd; background: #fff; display: block; }
#timeline { position: relative; }
#timeline canvas { cursor: crosshair; }
#timeline-controls button, p.note button { font-size: 13px; }
#legend span.item { display: inline-block; margin: 2px 10px 2px 0; cursor: pointer; }
#legend span.item.selected { font-weight: 600; text-decoration: underline; }
#legend span.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 4px;
                      vertical-align: -1px; }
)css";

const char *const PageScript = R"js(
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  function make(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function duration(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(3) + ' \u00b5s';
    return Math.round(ns) + ' ns';
  }
  function seconds(ns) { return (ns / 1e9).toFixed(6); }
  // A colour per region: the golden angle apart by index, so neighbours differ.
  function color(index, alpha) {
    return 'hsla(' + ((index * 137.508) % 360).toFixed(1) + ',60%,58%,' +
           (alpha === undefined ? 1 : alpha) + ')';
  }
  function basename(path) { return path.slice(path.lastIndexOf('/') + 1); }

  // ---- Sortable tables: a click on a header sorts (numbers largest first,
  // text alphabetically, a second click reverses); #sort=<key> sorts the
  // regions table at load.
  function makeSortable(table) {
    function cellValue(row, index, numeric) {
      var cell = row.cells[index];
      return numeric ? parseFloat(cell.getAttribute('data-value')) : cell.textContent;
    }
    function sortBy(th, descending) {
      var index = th.cellIndex, numeric = th.getAttribute('data-type') === 'num';
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
        var order = numeric ? x - y : (x < y ? -1 : x > y ? 1 : 0);
        if (descending) order = -order;
        return order || (+a.getAttribute('data-order') - +b.getAttribute('data-order'));
      });
      rows.forEach(function (row) { body.appendChild(row); });
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
        c.classList.remove('sorted-asc', 'sorted-desc');
      });
      th.classList.add(descending ? 'sorted-desc' : 'sorted-asc');
      table.setAttribute('data-sorted-by', th.getAttribute('data-key'));
    }
    table.classList.add('sortable');
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.addEventListener('click', function () {
        var numeric = th.getAttribute('data-type') === 'num';
        var descending = th.classList.contains('sorted-desc') ? false :
                         th.classList.contains('sorted-asc') ? true : numeric;
        sortBy(th, descending);
      });
    });
    return sortBy;
  }
  var table = $('regions');
  if (table && table.getAttribute('data-tree') !== 'yes') {
    var sortRegions = makeSortable(table);
    var wanted = /(?:^#|&)sort=([a-z0-9_]+)/.exec(location.hash);
    if (wanted) {
      var th = table.querySelector('th[data-key="' + wanted[1] + '"]');
      if (th) sortRegions(th, th.getAttribute('data-type') === 'num');
    }
  }
  if ($('compare')) makeSortable($('compare'));

  var profileNode = $('profile-data');
  var profile = profileNode ? JSON.parse(profileNode.textContent) : null;
  var timelineNode = $('timeline-data');
  var trace = timelineNode ? JSON.parse(timelineNode.textContent) : null;

  // ---- Selection: one region at a time, shown in the source view, the
  // table, the call tree and the timeline.
  var selectedRegion = null;   // profile region id (string)
  var selectedTrace = null;    // trace region index, or null
  var onSelect = [];
  function traceRegionsOf(regionId) {
    var found = {};
    if (!trace || !profile || !profile.regions[regionId]) return found;
    var loc = profile.regions[regionId].location;
    trace.regions.forEach(function (r, i) {
      if (r.file && loc && basename(r.file) + ':' + r.line === basename(loc.split(' ')[0]))
        found[i] = true;
    });
    return found;
  }
  function profileRegionOfTrace(index) {
    var r = trace.regions[index];
    if (!profile || !r.file) return null;
    var key = basename(r.file) + ':' + r.line;
    for (var id in profile.regions)
      if (basename(profile.regions[id].location.split(' ')[0]) === key) return id;
    return null;
  }
  function select(regionId, traceIndex) {
    selectedRegion = regionId === null || regionId === undefined ? null : String(regionId);
    selectedTrace = traceIndex === undefined ? null : traceIndex;
    onSelect.forEach(function (f) { f(); });
  }

  // ---- Source view.
  var sourceBox = $('source');
  function showSource() {
    if (!sourceBox || !profile) return;
    sourceBox.textContent = '';
    if (selectedRegion === null) {
      var what = selectedTrace !== null && trace ? trace.regions[selectedTrace] : null;
      make('p', {'class': 'note'}, sourceBox, what ?
           what.name + ': no region of the profile has this source location' +
           (what.file ? ' (' + what.file + ':' + what.line + ').' : '.') :
           'Select a region in the call tree, the table or the timeline to see its source lines here.');
      sourceBox.removeAttribute('data-region');
      return;
    }
    var region = profile.regions[selectedRegion] || {label: '?', location: ''};
    sourceBox.setAttribute('data-region', selectedRegion);
    make('p', {'class': 'meta'}, sourceBox, region.label + ' @' + region.location);
    showCounters(region);
    var src = profile.sources[selectedRegion];
    if (!src) {
      sourceBox.setAttribute('data-source', 'none');
      make('p', {'class': 'note'}, sourceBox, 'The profile names no source lines for this region.');
      return;
    }
    if (src.missing) {
      sourceBox.setAttribute('data-source', 'missing');
      make('p', {'class': 'note'}, sourceBox, 'Source of ' + src.file + ' not embedded: ' + src.missing);
      return;
    }
    sourceBox.setAttribute('data-source', 'embedded');
    make('p', {'class': 'note'}, sourceBox, src.file + ', lines ' + src.hl[0] + '-' + src.hl[1] +
         ' (as read when the page was written)');
    var pre = make('pre', {}, sourceBox);
    src.lines.forEach(function (text, i) {
      var n = src.first + i;
      var line = make('span', {'class': 'line' + (n >= src.hl[0] && n <= src.hl[1] ? ' hl' : ''),
                               'data-line': n}, pre);
      make('span', {'class': 'ln'}, line, String(n));
      line.appendChild(document.createTextNode(text));
    });
    if (src.more) make('p', {'class': 'note'}, sourceBox, src.more + ' more lines not shown.');
  }
  onSelect.push(showSource);
  // The selected region's hardware counters (POMP_METRICS), one line per part
  // of the region (parallel, parallel body, ...), as the table's flat rows.
  function showCounters(region) {
    var names = profile.metric_names || [];
    if (!names.length || !region.counters) return;
    var t = make('table', {'class': 'report', id: 'region-counters'}, sourceBox);
    var head = make('tr', {}, make('thead', {}, t));
    make('th', {}, head, 'hardware counters');
    names.forEach(function (m) {
      make('th', {}, head, m + ' excl');
      make('th', {}, head, m + ' incl');
    });
    var body = make('tbody', {}, t);
    region.counters.forEach(function (c) {
      var tr = make('tr', {}, body);
      make('td', {}, tr, c.construct);
      c.excl.forEach(function (v, i) {
        make('td', {'class': 'num'}, tr, String(v));
        make('td', {'class': 'num'}, tr, String(c.incl[i]));
      });
    });
  }

  // Table rows select their region.
  if (table && profile) {
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var region = profile.row_regions[row.getAttribute('data-node')];
      if (region === undefined) return;
      row.addEventListener('click', function () { select(region); });
    });
    onSelect.push(function () {
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var region = profile.row_regions[row.getAttribute('data-node')];
        row.classList.toggle('selected', selectedRegion !== null && String(region) === selectedRegion);
      });
    });
  }

  // ---- Call tree: rows made when their parent is expanded, children by
  // inclusive time, largest first.
  var treeBox = $('calltree');
  if (treeBox && profile) {
    var T = profile.tree, nodes = T.nodes;
    var kids = nodes.map(function () { return []; });
    nodes.forEach(function (n, i) { if (n[0] >= 0) kids[n[0]].push(i); });
    kids.forEach(function (k) { k.sort(function (a, b) { return nodes[b][5] - nodes[a][5] || a - b; }); });
    var total = 0;
    kids[0].forEach(function (i) { total += nodes[i][5]; });
    total = Math.max(total, 1);
    var head = make('div', {'class': 'tn head'}, treeBox);
    make('span', {'class': 'tog'}, head, '');
    make('span', {'class': 'name'}, head, 'call path');
    ['inclusive [s]', 'exclusive [s]', 'visits', 'threads', 'imbalance'].forEach(function (t) {
      make('span', {'class': 'num'}, head, t);
    });
    make('span', {'class': 'share', style: 'background:none'}, head, '');
    var rowOf = {};
    function nodeRow(i, depth, parent) {
      var n = nodes[i];
      var row = make('div', {'class': 'tn', 'data-node': i, 'data-region': n[2], 'data-depth': depth,
                             style: 'padding-left:' + (4 + 16 * depth) + 'px'}, parent);
      var hasKids = kids[i].length > 0 || n[9] > 0;
      var tog = make('span', {'class': 'tog'}, row, hasKids ? '\u25B8' : '');
      var name = make('span', {'class': 'name' + (n[3] === 'wait' ? ' wait' : ''),
                               title: T.titles[n[1]]}, row, T.titles[n[1]]);
      make('span', {'class': 'num'}, row, seconds(n[5]));
      make('span', {'class': 'num'}, row, seconds(n[6]));
      make('span', {'class': 'num'}, row, String(n[4]));
      make('span', {'class': 'num'}, row, String(n[7]));
      make('span', {'class': 'num'}, row, (n[8] / 10).toFixed(1) + '%');
      var share = make('span', {'class': 'share', title: (100 * n[5] / total).toFixed(1) + '% of the run'}, row);
      make('div', {style: 'width:' + Math.min(100, 100 * n[5] / total).toFixed(1) + '%'}, share);
      var box = make('div', {'class': 'kids'}, parent);
      box.style.display = 'none';
      row.kidsBox = box;
      if (hasKids) tog.addEventListener('click', function () { toggle(row); });
      name.addEventListener('click', function () { select(n[2] || null); });
      rowOf[i] = row;
      return row;
    }
    function expand(row) {
      var i = +row.getAttribute('data-node'), depth = +row.getAttribute('data-depth');
      if (!row.kidsBox.hasChildNodes()) {
        kids[i].forEach(function (k) { nodeRow(k, depth + 1, row.kidsBox); });
        if (nodes[i][9] > 0)
          make('div', {'class': 'tn hidden-note', style: 'padding-left:' + (20 + 16 * (depth + 1)) + 'px'},
               row.kidsBox, nodes[i][9] + ' smaller call paths not on this page (' +
               seconds(nodes[i][10]) + ' s inclusive)');
      }
      row.kidsBox.style.display = '';
      row.classList.add('expanded');
      if (row.firstChild.textContent) row.firstChild.textContent = '\u25BE';
    }
    function collapse(row) {
      row.kidsBox.style.display = 'none';
      row.classList.remove('expanded');
      if (row.firstChild.textContent) row.firstChild.textContent = '\u25B8';
    }
    function toggle(row) { (row.classList.contains('expanded') ? collapse : expand)(row); }
    kids[0].forEach(function (k) { nodeRow(k, 0, treeBox); });
    treeBox.setAttribute('data-nodes', nodes.length);
    if ($('hot-path')) $('hot-path').addEventListener('click', function () {
      var at = kids[0][0];
      while (at !== undefined && rowOf[at]) {
        expand(rowOf[at]);
        at = kids[at][0];
      }
      if (at !== undefined && rowOf[at]) rowOf[at].scrollIntoView({block: 'nearest'});
    });
    if ($('collapse-all')) $('collapse-all').addEventListener('click', function () {
      Array.prototype.forEach.call(treeBox.querySelectorAll('.tn.expanded'), collapse);
    });
    onSelect.push(function () {
      Array.prototype.forEach.call(treeBox.querySelectorAll('.tn[data-node]'), function (row) {
        row.classList.toggle('selected', row.getAttribute('data-region') === selectedRegion);
      });
    });
  }

  // ---- Heat map: a cell per (region, thread), scaled per row.
  var heatBox = $('heatmap');
  if (heatBox && profile && profile.heat.rows.length) {
    var H = profile.heat, labelW = 300, cellH = 16, topH = 22;
    var avail = Math.max(400, (heatBox.clientWidth || 1200) - labelW - 10);
    var cellW = Math.max(2, Math.min(40, Math.floor(avail / Math.max(1, H.threads.length))));
    var width = labelW + cellW * H.threads.length + 10, height = topH + cellH * H.rows.length + 4;
    var ratio = window.devicePixelRatio || 1;
    var canvas = make('canvas', {'data-rows': H.rows.length, 'data-threads': H.threads.length}, heatBox);
    canvas.width = width * ratio; canvas.height = height * ratio;
    canvas.style.width = width + 'px'; canvas.style.height = height + 'px';
    var g = canvas.getContext('2d');
    g.scale(ratio, ratio);
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = '#333';
    var every = Math.max(1, Math.ceil(30 / cellW));
    H.threads.forEach(function (t, c) {
      if (c % every === 0) g.fillText(String(t), labelW + c * cellW, topH - 8);
    });
    H.rows.forEach(function (row, r) {
      var max = Math.max.apply(null, row.v.concat([1]));
      var y = topH + r * cellH;
      g.fillStyle = '#333';
      var label = row.title.length > 48 ? row.title.slice(0, 47) + '\u2026' : row.title;
      g.fillText(label, 4, y + cellH - 4);
      row.v.forEach(function (v, c) {
        g.fillStyle = v === 0 ? '#f4f4f4' : 'hsl(220,70%,' + (92 - 62 * v / max).toFixed(1) + '%)';
        g.fillRect(labelW + c * cellW, y + 1, Math.max(1, cellW - (cellW > 3 ? 1 : 0)), cellH - 2);
      });
    });
    var heatInfo = make('div', {'class': 'note', id: 'heatmap-info'}, heatBox, '\u00a0');
    canvas.addEventListener('mousemove', function (e) {
      var rect = canvas.getBoundingClientRect();
      var c = Math.floor((e.clientX - rect.left - labelW) / cellW);
      var r = Math.floor((e.clientY - rect.top - topH) / cellH);
      if (r < 0 || r >= H.rows.length || c < 0 || c >= H.threads.length) return;
      heatInfo.textContent = H.rows[r].title + ', thread ' + H.threads[c] + ': ' +
                             duration(H.rows[r].v[c]) + ' exclusive';
    });
    canvas.addEventListener('click', function (e) {
      var r = Math.floor((e.clientY - canvas.getBoundingClientRect().top - topH) / cellH);
      if (r >= 0 && r < H.rows.length) select(H.rows[r].region);
    });
  }

  // ---- Timeline on a canvas. Visits at least MinRectPx wide are drawn as
  // rectangles with their names; narrower ones, and the visits beyond the
  // per-lane limit (summed into stretches of time by pomp-report), are added
  // to the pixel column they fall in and drawn as a column coloured by the
  // region with the most time in it, as opaque as the share of the pixel's
  // time they cover. So every visit is drawn at every zoom.
  var holder = $('timeline');
  if (!holder || !trace) { showSource(); return; }
  var labelWidth = 140, rowHeight = 14, laneGap = 8, axisHeight = 22, MinRectPx = 2;
  var width = Math.max(800, holder.clientWidth || 1200), plotWidth = width - labelWidth - 10;
  var end = Math.max(trace.end_ns, 1);
  var view = {start: 0, end: end};
  var laneTop = [], height = axisHeight;
  trace.lanes.forEach(function (lane) {
    laneTop.push(height);
    height += (lane.max_depth + 1) * rowHeight + laneGap;
  });
  var ratio2 = window.devicePixelRatio || 1;
  var canvas2 = make('canvas', {'data-lanes': trace.lanes.length}, holder);
  canvas2.width = width * ratio2; canvas2.height = height * ratio2;
  canvas2.style.width = width + 'px'; canvas2.style.height = height + 'px';
  var ctx = canvas2.getContext('2d');
  ctx.scale(ratio2, ratio2);
  var info = $('timeline-info'), legendBox = $('legend');
  var highlight = {};
  function x(t) { return labelWidth + (t - view.start) * plotWidth / (view.end - view.start); }
  function draw() {
    var span = view.end - view.start, nsPerPx = span / plotWidth;
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    var ticks = 6;
    for (var t = 0; t <= ticks; ++t) {
      var tx = labelWidth + plotWidth * t / ticks;
      ctx.fillStyle = '#ccc';
      ctx.fillRect(tx, axisHeight - 6, 1, height - axisHeight + 6);
      ctx.fillStyle = '#333';
      ctx.textAlign = t === 0 ? 'left' : t === ticks ? 'right' : 'center';
      ctx.fillText(duration(view.start + span * t / ticks), tx, axisHeight - 9);
    }
    ctx.textAlign = 'left';
    var anySelected = Object.keys(highlight).length > 0;
    var rects = 0, columns = 0, timeByRegion = {};
    trace.lanes.forEach(function (lane, li) {
      var top = laneTop[li];
      ctx.fillStyle = '#333';
      ctx.fillText(lane.name, 4, top + rowHeight - 3);
      // Per depth: the busy time of each pixel column and its heaviest region.
      var busy = [], heavy = [], heavyNs = [];
      for (var d = 0; d <= lane.max_depth; ++d) {
        busy.push(new Float64Array(plotWidth)); heavy.push(new Int32Array(plotWidth));
        heavyNs.push(new Float64Array(plotWidth));
      }
      function addSpan(d, region, s, e) {
        var a = Math.max(s, view.start), b = Math.min(e, view.end);
        if (b < a) return;
        timeByRegion[region] = (timeByRegion[region] || 0) + (b - a);
        var c0 = Math.floor((a - view.start) / nsPerPx), c1 = Math.floor((b - view.start) / nsPerPx);
        for (var c = Math.max(c0, 0); c <= Math.min(c1, plotWidth - 1); ++c) {
          var from = Math.max(a, view.start + c * nsPerPx), to = Math.min(b, view.start + (c + 1) * nsPerPx);
          var part = Math.max(to - from, 0) || (b === a ? nsPerPx * 0.05 : 0);
          busy[d][c] += part;
          if (part >= heavyNs[d][c]) { heavyNs[d][c] = part; heavy[d][c] = region; }
        }
      }
      var wide = [];
      lane.iv.forEach(function (iv) {
        var s = iv[0], e = iv[0] + iv[1];
        if (e < view.start || s > view.end) return;
        if (iv[1] / nsPerPx >= MinRectPx) { wide.push(iv); timeByRegion[iv[3]] = (timeByRegion[iv[3]] || 0) + iv[1]; }
        else addSpan(iv[2], iv[3], s, e);
      });
      lane.bins.forEach(function (b) {
        // A stretch's visits are spread evenly over it: its busy share.
        var s = b[0] * lane.bin_ns, e = (b[0] + b[5]) * lane.bin_ns;
        if (e < view.start || s > view.end) return;
        var share = b[2] / lane.bin_ns;
        var a = Math.max(s, view.start), z = Math.min(e, view.end);
        var c0 = Math.floor((a - view.start) / nsPerPx), c1 = Math.floor((z - view.start) / nsPerPx);
        timeByRegion[b[4]] = (timeByRegion[b[4]] || 0) + b[2] * (z - a) / lane.bin_ns;
        for (var c = Math.max(c0, 0); c <= Math.min(c1, plotWidth - 1); ++c) {
          var from = Math.max(a, view.start + c * nsPerPx), to = Math.min(z, view.start + (c + 1) * nsPerPx);
          var part = Math.max(to - from, 0) * share;
          busy[b[1]][c] += part;
          if (part >= heavyNs[b[1]][c]) { heavyNs[b[1]][c] = part; heavy[b[1]][c] = b[4]; }
        }
      });
      for (var d2 = 0; d2 <= lane.max_depth; ++d2) {
        for (var c = 0; c < plotWidth; ++c) {
          if (busy[d2][c] === 0) continue;
          var region = heavy[d2][c];
          var dim = anySelected && !highlight[region];
          ctx.fillStyle = color(region,
                                (dim ? 0.25 : 1) * Math.min(1, 0.3 + 0.7 * busy[d2][c] / nsPerPx));
          ctx.fillRect(labelWidth + c, top + d2 * rowHeight, 1, rowHeight - 1);
          ++columns;
        }
      }
      wide.forEach(function (iv) {
        var rx = x(iv[0]), rw = iv[1] * plotWidth / span;
        var cx = Math.max(rx, labelWidth), cw = Math.min(rx + rw, labelWidth + plotWidth) - cx;
        var name = trace.regions[iv[3]].name;
        var dim = anySelected && !highlight[iv[3]];
        ctx.fillStyle = color(iv[3], dim ? 0.25 : 1);
        ctx.fillRect(cx, top + iv[2] * rowHeight, cw, rowHeight - 1);
        if (highlight[iv[3]]) {
          ctx.strokeStyle = '#000';
          ctx.strokeRect(cx + 0.5, top + iv[2] * rowHeight + 0.5, cw - 1, rowHeight - 2);
        }
        var fits = Math.floor((cw - 4) / 6);
        if (fits >= 3) {
          ctx.fillStyle = '#111';
          ctx.fillText(name.length <= fits ? name : name.slice(0, fits - 1) + '\u2026', cx + 2,
                       top + iv[2] * rowHeight + rowHeight - 4);
        }
        ++rects;
      });
    });
    canvas2.setAttribute('data-view-start', Math.round(view.start));
    canvas2.setAttribute('data-view-end', Math.round(view.end));
    canvas2.setAttribute('data-rects', rects);
    canvas2.setAttribute('data-columns', columns);
    drawLegend(timeByRegion);
  }
  function drawLegend(timeByRegion) {
    if (!legendBox) return;
    legendBox.textContent = '';
    var shown = Object.keys(timeByRegion).sort(function (a, b) { return timeByRegion[b] - timeByRegion[a]; })
                      .slice(0, 24);
    make('span', {'class': 'note'}, legendBox, 'Regions in view: ');
    shown.forEach(function (r) {
      var item = make('span', {'class': 'item' + (highlight[r] ? ' selected' : ''), 'data-region': trace.regions[r].name}, legendBox);
      make('span', {'class': 'swatch', style: 'background:' + color(+r)}, item);
      item.appendChild(document.createTextNode(trace.regions[r].name));
      item.addEventListener('click', function () { select(profileRegionOfTrace(+r), +r); });
    });
  }
  function zoom(factor, atX) {
    var span = view.end - view.start;
    var t = view.start + (atX === undefined ? 0.5 : (atX - labelWidth) / plotWidth) * span;
    var next = Math.max(Math.min(span * factor, end), 1000);
    var frac = (t - view.start) / span;
    view.start = Math.max(0, t - frac * next);
    view.end = Math.min(end, view.start + next);
    view.start = Math.max(0, view.end - next);
    draw();
  }
  function hit(e) {
    var rect = canvas2.getBoundingClientRect();
    var px = e.clientX - rect.left, py = e.clientY - rect.top;
    if (px < labelWidth) return null;
    var li = -1;
    for (var i = 0; i < laneTop.length; ++i) if (py >= laneTop[i]) li = i;
    if (li < 0) return null;
    var lane = trace.lanes[li], d = Math.floor((py - laneTop[li]) / rowHeight);
    if (d > lane.max_depth) return null;
    var nsPerPx = (view.end - view.start) / plotWidth;
    var t = view.start + (px - labelWidth) * nsPerPx;
    var best = null, near = 0, nearNs = 0;
    lane.iv.forEach(function (iv) {
      if (iv[2] !== d) return;
      if (iv[0] <= t && t <= iv[0] + iv[1]) best = iv;
      else if (iv[0] + iv[1] >= t - nsPerPx && iv[0] <= t + nsPerPx) { ++near; nearNs += iv[1]; }
    });
    if (best) return {lane: lane, iv: best};
    var binned = null;
    if (lane.bin_ns) {
      var k = Math.floor(t / lane.bin_ns);
      lane.bins.forEach(function (b) { if (b[0] <= k && k < b[0] + b[5] && b[1] === d) binned = b; });
    }
    return {lane: lane, near: near, nearNs: nearNs, bin: binned};
  }
  canvas2.addEventListener('mousemove', function (e) {
    if (drag) return;
    var h = hit(e);
    if (!h) return;
    if (h.iv) {
      var r = trace.regions[h.iv[3]];
      info.textContent = h.lane.name + ': ' + r.name + ' \u2014 ' + duration(h.iv[1]) + ' (depth ' +
                         h.iv[2] + ')' + (r.file ? ' ' + r.file + ':' + r.line : '');
    } else if (h.near || h.bin) {
      var text = h.lane.name + ': ';
      if (h.near) text += h.near + ' short visits here, ' + duration(h.nearNs) + '; ';
      if (h.bin) text += h.bin[3] + ' more visits summed in this stretch of ' + duration(h.lane.bin_ns) +
                         ' (' + duration(h.bin[2]) + ' busy, mostly ' + trace.regions[h.bin[4]].name + ')';
      info.textContent = text + ' \u2014 zoom in to see them one by one';
    }
  });
  var drag = null;
  canvas2.addEventListener('mousedown', function (e) { drag = {x: e.clientX, start: view.start, moved: false}; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2) drag.moved = true;
    var span = view.end - view.start;
    view.start = Math.min(Math.max(0, drag.start - dx * span / plotWidth), end - span);
    view.end = view.start + span;
    draw();
  });
  window.addEventListener('mouseup', function (e) {
    if (!drag) return;
    var moved = drag.moved;
    drag = null;
    if (moved || e.target !== canvas2) return;
    var h = hit(e);
    if (h && h.iv) select(profileRegionOfTrace(h.iv[3]), h.iv[3]);
  });
  canvas2.addEventListener('wheel', function (e) {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.25 : 0.8, e.clientX - canvas2.getBoundingClientRect().left);
  }, {passive: false});
  $('zoom-in').addEventListener('click', function () { zoom(0.5); });
  $('zoom-out').addEventListener('click', function () { zoom(2); });
  $('zoom-reset').addEventListener('click', function () { view.start = 0; view.end = end; draw(); });
  onSelect.push(function () {
    highlight = selectedRegion !== null ? traceRegionsOf(selectedRegion) : {};
    if (selectedTrace !== null) highlight[selectedTrace] = true;
    draw();
  });
  draw();
  showSource();
})();
)js";

} // namespace pomp::report
