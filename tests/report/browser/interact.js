// Drives pomp-report's HTML page in Debian's headless Chromium with puppeteer-core
// (tests/report/browser.test): expands a call-tree node, selects a region and reads its source
// lines, zooms, pans and hovers the timeline, and checks that a page whose visits exceed the
// per-lane limit still draws every visit (aggregated pixel columns). Prints one line per fact for
// FileCheck and takes screenshots. Any script error on the page fails the test.
//
//   node interact.js <page.html> <limited-page.html> <screenshot-dir> [<counters-page.html>]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [pagePath, limitedPath, shotDir, countersPath] = process.argv.slice(2);
// Flags for a browser that touches no network and no profile of the user's.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const VIEWPORT = {width: 1300, height: 900};

function check(condition, what) {
  if (!condition) throw new Error('check failed: ' + what);
}

async function open(browser, file) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // Nothing is loaded from elsewhere: any request but the page itself fails the test.
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.url().startsWith('file://')) r.continue();
    else { errors.push('request to ' + r.url()); r.abort(); }
  });
  await page.setViewport(VIEWPORT);
  await page.goto('file://' + path.resolve(file), {waitUntil: 'load'});
  return {page, errors};
}

async function viewOf(page) {
  return page.$eval('#timeline canvas', (c) => ({
    start: +c.getAttribute('data-view-start'), end: +c.getAttribute('data-view-end'),
    rects: +c.getAttribute('data-rects'), columns: +c.getAttribute('data-columns')}));
}

// Chromium puts its singleton socket at $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket and
// aborts when that passes the 107 bytes a Unix socket path may have. A deep build tree (CI checks
// out under /check/work/...) gets there, so the browser then gets a short directory under /tmp,
// removed with the profile however the script ends.
const SOCKET_SUFFIX = '/org.chromium.Chromium.XXXXXX/SingletonSocket';
const scratch = [];
function scratchDir(base, prefix) {
  const dir = fs.mkdtempSync(path.join(base, prefix));
  scratch.push(dir);
  return dir;
}
function removeScratch() {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, {recursive: true, force: true});
}
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => { removeScratch(); process.exit(1); });
}

async function main() {
  const profileDir = scratchDir(os.tmpdir(), 'pomp-browser-');
  const browserTmp = (os.tmpdir() + SOCKET_SUFFIX).length < 100 ? os.tmpdir()
                                                                   : scratchDir('/tmp', 'pomp-br-');
  const browser = await puppeteer.launch({executablePath: '/usr/bin/chromium', headless: true,
                                          args: FLAGS, userDataDir: profileDir,
                                          env: {...process.env, TMPDIR: browserTmp}});
  try {
    const {page, errors} = await open(browser, pagePath);

    // The call tree: top-level nodes collapsed; expanding the parallel region shows its body.
    const top = await page.$$eval('#calltree > .tn[data-node]', (rows) =>
        rows.map((r) => r.querySelector('.name').textContent));
    console.log('tree top: ' + top.slice().sort().join(' | '));
    const parallel = await page.$('#calltree > .tn[data-node] .name[title^="parallel @"]');
    check(parallel, 'a top-level parallel node');
    const row = await parallel.evaluateHandle((n) => n.parentElement);
    await (await row.$('.tog')).click();
    const kids = await row.evaluate((r) => ({
      expanded: r.classList.contains('expanded'), toggle: r.querySelector('.tog').textContent,
      children: Array.from(r.nextElementSibling.querySelectorAll(':scope > .tn .name'))
                    .map((n) => n.textContent)}));
    console.log('expanded: ' + kids.expanded + ' ' + kids.toggle + ' children: ' +
                kids.children.join(' | '));
    // The hottest path opens every level down to a leaf.
    await page.click('#hot-path');
    const depth = await page.$$eval('#calltree .tn.expanded', (r) => r.length);
    console.log('hot path expanded levels: ' + depth);

    // Selecting a region in the tree shows its source lines, the construct's lines marked.
    const compute = await page.$('#calltree .name[title^="user region \\"compute\\""]');
    check(compute, 'the compute region in the expanded tree');
    await compute.click();
    const source = await page.$eval('#source', (s) => ({
      state: s.getAttribute('data-source'),
      marked: Array.from(s.querySelectorAll('.line.hl')).map((l) => l.textContent.trim()),
      lines: s.querySelectorAll('.line').length}));
    console.log('source: ' + source.state + ', ' + source.lines + ' lines, marked: ' +
                source.marked.join(' / '));
    const selectedRows = await page.$$eval('#calltree .tn.selected, #regions tr.selected',
                                           (r) => r.length);
    console.log('selected rows: ' + selectedRows);
    await page.screenshot({path: path.join(shotDir, 'page.png'), fullPage: true});
    const treeBox = await page.$('#calltree');
    await treeBox.screenshot({path: path.join(shotDir, 'calltree.png')});
    await (await page.$('#source')).screenshot({path: path.join(shotDir, 'source.png')});

    // The timeline: the buttons and the wheel zoom, a drag pans, a hover names the visit.
    const whole = await viewOf(page);
    console.log('timeline whole run: ' + whole.start + '..' + whole.end + ', ' + whole.rects +
                ' rectangles');
    await page.click('#zoom-in');
    const zoomed = await viewOf(page);
    console.log('zoom in: span ' + (zoomed.end - zoomed.start));
    const canvas = await page.$('#timeline canvas');
    const box = await canvas.boundingBox();
    // Lane 0, depth 1 (the parallel region) in the middle of the plot.
    const laneY = box.y + 22 + 14 + 7;
    await page.mouse.move(box.x + 140 + (box.width - 150) / 2, laneY);
    await page.mouse.wheel({deltaY: -100});
    const wheeled = await viewOf(page);
    console.log('wheel zooms in: ' + (wheeled.end - wheeled.start < zoomed.end - zoomed.start));
    await page.mouse.move(box.x + 600, laneY);
    await page.mouse.down();
    await page.mouse.move(box.x + 500, laneY, {steps: 4});
    await page.mouse.up();
    const panned = await viewOf(page);
    console.log('drag pans later: ' + (panned.start > wheeled.start) + ', span kept: ' +
                (Math.abs((panned.end - panned.start) - (wheeled.end - wheeled.start)) < 2));
    await page.mouse.move(box.x + 400, laneY);
    const info = await page.$eval('#timeline-info', (e) => e.textContent);
    console.log('hover: ' + info);
    await page.click('#zoom-reset');
    // A click on a visit selects its region: its source shows, the legend marks it.
    await page.mouse.click(box.x + 140 + (box.width - 150) * 0.35, box.y + 22 + 2 * 14 + 7);
    const picked = await page.$eval('#source', (s) => s.getAttribute('data-region') + ' ' +
                                    s.getAttribute('data-source'));
    const legend = await page.$$eval('#legend .item.selected', (i) => i.map((e) => e.textContent));
    console.log('timeline click selects: ' + picked + ', legend: ' + legend.join(' | '));
    await (await page.$('#timeline')).screenshot({path: path.join(shotDir, 'timeline.png')});
    await (await page.$('#heatmap')).screenshot({path: path.join(shotDir, 'heatmap.png')});
    console.log('page errors: ' + errors.length + (errors.length ? ' ' + errors.join('; ') : ''));

    // Beyond the limit (2 visits per lane) every visit is still drawn: the others are summed
    // into stretches and drawn as pixel columns.
    const limited = await open(browser, limitedPath);
    const lod = await viewOf(limited.page);
    console.log('limited: ' + lod.rects + ' rectangles, columns drawn: ' + (lod.columns > 0));
    await (await limited.page.$('#timeline')).screenshot({path: path.join(shotDir, 'limited.png')});
    console.log('limited page errors: ' + limited.errors.length +
                (limited.errors.length ? ' ' + limited.errors.join('; ') : ''));

    // Hardware counters: sorting by a counter column, and a selected region's counters.
    if (countersPath) {
      const counters = await open(browser, countersPath);
      const cpage = counters.page;
      await cpage.click('#regions th[data-key="counter0_incl"]');
      const first = await cpage.$eval('#regions tbody tr', (r) => r.cells[0].textContent);
      console.log('sorted by counter: ' + first);
      await cpage.click('#regions tbody tr');
      const detail = await cpage.$$eval('#region-counters tr', (rows) =>
          rows.map((r) => Array.from(r.cells).map((c) => c.textContent).join(' ')));
      console.log('region counters: ' + detail.join(' | '));
      await (await cpage.$('#source')).screenshot({path: path.join(shotDir, 'counters.png')});
      console.log('counters page errors: ' + counters.errors.length +
                  (counters.errors.length ? ' ' + counters.errors.join('; ') : ''));
    }
  } finally {
    await browser.close();
  }
}

main().then(removeScratch, (e) => {
  removeScratch();
  console.error(e.stack || String(e));
  process.exit(1);
});
