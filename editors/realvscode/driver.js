'use strict';

// driver.js drives VS Code (code-server, in Debian's chromium through
// puppeteer-core) with the packaged skillscript extension and `skillc lsp`
// behind it, asserting what an author sees. Usage:
//
//   node driver.js URL WORKSPACE SHOTS_DIR
//
// It prints one "PASS name: detail" or "FAIL name: detail" line per check
// and exits 1 when a check failed.

const puppeteer = require('puppeteer-core');
const fs = require('fs');
const path = require('path');

const [url, workspace, shots] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const results = [];

function check(name, ok, detail) {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

// poll re-evaluates f until it returns a truthy value or ms pass.
async function poll(f, ms) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) {
    v = await f();
    if (v) {
      return v;
    }
    await sleep(250);
  }
  return v;
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  const key = async (...ks) => {
    for (const k of ks.slice(0, -1)) await page.keyboard.down(k);
    await page.keyboard.press(ks[ks.length - 1]);
    for (const k of ks.slice(0, -1).reverse()) await page.keyboard.up(k);
  };
  const text = (sel) => page.evaluate((s) => {
    const e = document.querySelector(s);
    return e ? e.innerText : '';
  }, sel);
  const quickOpen = async (name) => {
    await key('Control', 'KeyP');
    await sleep(600);
    await page.keyboard.type(name);
    await sleep(800);
    await page.keyboard.press('Enter');
    await sleep(1500);
  };
  const goto = async (l, c) => {
    await key('Control', 'KeyG');
    await sleep(400);
    await page.keyboard.type(`${l}:${c}`);
    await page.keyboard.press('Enter');
    await sleep(400);
  };
  const lineText = (n) => page.evaluate((n) => {
    const ls = Array.from(document.querySelectorAll('.editor-instance .view-line'));
    const rows = ls.map((l) => [parseInt(l.style.top, 10), l.innerText.replace(/\u00a0/g, ' ')]).sort((a, b) => a[0] - b[0]);
    return rows[n - 1] && rows[n - 1][1];
  }, n);
  const suggestions = () => page.evaluate(() => Array.from(document.querySelectorAll('.suggest-widget .monaco-list-row'))
    .map((r) => (r.getAttribute('aria-label') || r.innerText).replace(/\s+/g, ' ').slice(0, 80)));
  // command runs a command palette entry whose label is title.
  const command = async (title) => {
    await key('Control', 'Shift', 'KeyP');
    await sleep(800);
    await page.keyboard.type(title);
    await sleep(1000);
    const labels = await page.evaluate(() => Array.from(document.querySelectorAll('.quick-input-list .monaco-list-row'))
      .map((r) => (r.getAttribute('aria-label') || r.innerText).split(/\n|, /)[0].trim()));
    const i = labels.indexOf(title);
    for (let k = 0; k < i; k++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press(i >= 0 ? 'Enter' : 'Escape');
    await sleep(800);
    return i >= 0 ? title : `not in palette: ${JSON.stringify(labels.slice(0, 5))}`;
  };
  const shot = async (name) => {
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, name) });
  };

  await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded', timeout: 90000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
  await sleep(5000);
  // trust the folder if asked
  await page.evaluate(() => {
    const b = Array.from(document.querySelectorAll('.monaco-button')).find((x) => /Trust/.test(x.innerText));
    if (b) b.click();
  });
  await sleep(1000);

  // 1. diagnostics with positions (Problems panel)
  await quickOpen('broken.skill.md');
  const mode = await text('[id="status.editor.mode"]');
  check('language mode', /Skillscript/i.test(mode), mode);
  await key('Control', 'Shift', 'KeyM');
  const problems = await poll(async () => {
    const t = await text('.markers-panel');
    return /NAEM/.test(t) && /single|"="/.test(t) ? t : '';
  }, 30000);
  check('diagnostic undeclared-var at 7:18', /NAEM[\s\S]*Ln 7, Col 18/.test(problems || ''), (problems || '').split('\n').filter((l) => /NAEM|Ln 7/.test(l)).join(' | ').slice(0, 200));
  check('diagnostic single-equals at 8:16', /Ln 8, Col 16/.test(problems || ''), (problems || '').split('\n').filter((l) => /Ln 8/.test(l)).join(' | ').slice(0, 200));
  const dup = ((problems || '').match(/Ln 8, Col 16/g) || []).length;
  check('each diagnostic listed once', dup === 1, `single-equals listed ${dup} time(s)`);
  await shot('vscode-diagnostics.png');
  await key('Control', 'Shift', 'KeyM');

  // 2. quick fix on the single "="
  await goto(8, 16);
  await key('Control', 'Period');
  await sleep(2000);
  const actions = await page.evaluate(() => Array.from(document.querySelectorAll('.action-widget .monaco-list-row, .context-view .action-label'))
    .map((e) => e.innerText.trim()).filter(Boolean));
  const idx = actions.findIndex((a) => /==/.test(a));
  if (idx >= 0) {
    for (let i = 0; i < idx; i++) await page.keyboard.press('ArrowDown');
  }
  await shot('vscode-quickfix.png');
  await page.keyboard.press('Enter');
  await sleep(1500);
  const line8 = await lineText(8);
  check('quick fix "==" applied', /\$\{NAME\} == "x"/.test(line8 || ''), `menu ${JSON.stringify(actions.slice(0, 4))}; line 8 now ${JSON.stringify(line8)}`);

  // 3. go to definition across files
  await goto(10, 25);
  await page.keyboard.press('F12');
  const tab = await poll(async () => {
    const t = await text('.tab.active');
    return /ok\.skill\.md/.test(t) ? t : '';
  }, 10000);
  check('F12 on execute_skill name opens ok.skill.md', /ok\.skill\.md/.test(tab || ''), `active tab ${JSON.stringify(tab || (await text('.tab.active')))}`);

  // 4. tool completion from the live MCP server
  await quickOpen('broken.skill.md');
  await goto(11, 200);
  await page.keyboard.press('Enter');
  await page.keyboard.type('$ srv.');
  await sleep(500);
  const tools = await poll(async () => {
    await key('Control', 'Space');
    await sleep(1500);
    const s = await suggestions();
    if (s.some((x) => /^echo\b/.test(x))) {
      return s;
    }
    await page.keyboard.press('Escape');
    return null;
  }, 40000);
  check('completion after "$ srv." lists the server\'s tools', Boolean(tools), JSON.stringify((tools || []).slice(0, 6)));
  await shot('vscode-tools.png');
  await page.keyboard.press('Escape');
  await page.keyboard.type('echo ');
  await sleep(500);
  await key('Control', 'Space');
  await sleep(1500);
  const args = await suggestions();
  check('completion after "$ srv.echo " offers text from the schema', args.some((x) => /^text\b/.test(x)), JSON.stringify(args.slice(0, 6)));
  await shot('vscode-tool-args.png');
  await page.keyboard.press('Escape');

  // 5. the "Run" code lens runs `skillc run FILE` and shows its output
  await quickOpen('ok.skill.md');
  // VS Code reacts to the mouse on a code lens, not to a DOM click()
  const lens = await poll(() => page.evaluate(() => {
    const a = Array.from(document.querySelectorAll('.editor-instance .codelens-decoration a'))
      .find((x) => /Run/.test(x.innerText));
    if (!a) return null;
    const r = a.getBoundingClientRect();
    return { text: a.innerText, x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }), 20000);
  if (lens) {
    await page.mouse.click(lens.x, lens.y);
  }
  const runOut = await poll(async () => {
    const t = await page.evaluate(() => Array.from(document.querySelectorAll('.part.panel .view-lines'))
      .map((e) => e.innerText.replace(/\u00a0/g, ' ')).join('\n'));
    return /run .*ok\.skill\.md[\s\S]*\[exit 0\]/.test(t) ? t : '';
  }, 20000);
  check('code lens Run runs the skill', Boolean(lens) && Boolean(runOut),
    `lens ${JSON.stringify(lens && lens.text)}; output ${JSON.stringify((runOut || '').split('\n').filter((l) => /\S/.test(l)).slice(0, 4))}`);
  await shot('vscode-codelens-run.png');

  // 6. the debugger: a breakpoint on an op line, Run and Debug with the
  // workspace's launch.json (skillc dap under the extension's
  // DebugAdapterExecutable), stop there, read the variables, continue to
  // the end of the run.
  await quickOpen('debug.skill.md');
  await goto(8, 5);
  const toggled = await command('Debug: Toggle Breakpoint');
  const bpLine = await poll(() => page.evaluate(() => {
    // the line whose glyph margin holds the breakpoint
    const g = document.querySelector('.editor-instance .glyph-margin-widgets .codicon-debug-breakpoint, .editor-instance .margin-view-overlays .codicon-debug-breakpoint');
    if (!g) return null;
    const top = g.getBoundingClientRect().top;
    const line = Array.from(document.querySelectorAll('.editor-instance .view-line'))
      .find((l) => Math.abs(l.getBoundingClientRect().top - top) < 4);
    return line ? line.innerText.replace(/\u00a0/g, ' ') : '?';
  }), 10000);
  check('breakpoint set on the op line', /\$set SHOUT/.test(bpLine || ''), `${toggled}; glyph on ${JSON.stringify(bpLine)}`);
  const started = await command('Debug: Start Debugging');
  const debugState = () => page.evaluate(() => {
    const t = (s) => Array.from(document.querySelectorAll(s)).map((e) => e.innerText.replace(/\u00a0/g, ' ')).join('\n');
    const bar = document.querySelector('.debug-toolbar');
    const visible = Boolean(bar && bar.offsetParent !== null && getComputedStyle(bar).display !== 'none');
    return {
      toolbar: visible,
      stack: t('.debug-call-stack .monaco-list-row'),
      // "Paused on breakpoint" sits in the Call Stack header when the
      // session has one thread
      stackHeader: Array.from(document.querySelectorAll('.pane-header')).map((h) => h.innerText).find((x) => /call stack/i.test(x)) || '',
      vars: t('.debug-variables .monaco-list-row'),
      // the text of the line VS Code highlights as the top stack frame
      topFrame: (() => {
        const h = document.querySelector('.editor-instance .debug-top-stack-frame-line');
        if (!h) return '';
        const top = h.getBoundingClientRect().top;
        const line = Array.from(document.querySelectorAll('.editor-instance .view-line'))
          .find((l) => Math.abs(l.getBoundingClientRect().top - top) < 4);
        return line ? line.innerText.replace(/\u00a0/g, ' ') : '?';
      })(),
      console: t('.repl .monaco-list-row'),
      notes: t('.notifications-toasts .notification-list-item-message, .monaco-dialog-box .dialog-message-text, .monaco-dialog-box .dialog-message-detail'),
    };
  });
  const stopped = await poll(async () => {
    const st = await debugState();
    return st.toolbar && /debug\.skill\.md\s*8:/.test(st.stack) && /MESSAGE/.test(st.vars) ? st : null;
  }, 60000);
  const st = stopped || (await debugState());
  check('debug session stops at the breakpoint', Boolean(stopped) && /Paused on breakpoint/i.test(st.stackHeader + st.stack) && /\$set SHOUT/.test(st.topFrame),
    `${started}; toolbar ${st.toolbar}; highlighted line ${JSON.stringify(st.topFrame)}; ${JSON.stringify(st.stackHeader.replace(/\s+/g, ' '))} ${JSON.stringify(st.stack.split('\n').filter(Boolean).slice(0, 4))}` +
    (stopped ? '' : `; console ${JSON.stringify(st.console.slice(-300))}; notifications ${JSON.stringify(st.notes.slice(0, 600))}`));
  check('Variables view shows the bound MESSAGE', /MESSAGE[\s\S]*hello vscode/.test(st.vars), JSON.stringify(st.vars.split('\n').filter(Boolean).slice(0, 6)));
  await shot('vscode-debug.png');
  // continue: the debug toolbar's Continue button, clicked with the mouse
  const cont = await page.evaluate(() => {
    const a = document.querySelector('.debug-toolbar .codicon-debug-continue');
    if (!a) return null;
    const r = a.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  if (cont) {
    await page.mouse.click(cont.x, cont.y);
  } else {
    await command('Debug: Continue');
  }
  const ended = await poll(async () => {
    const s2 = await debugState();
    return !s2.toolbar && s2.stack.trim() === '' ? s2 : null;
  }, 30000);
  const end = ended || (await debugState());
  check('continue runs the skill to its end and the session ends',
    Boolean(stopped) && Boolean(ended) && /hello vscode!/.test(end.console) && /finished: ok/.test(end.console),
    `continue via ${cont ? 'toolbar' : 'palette'}; toolbar ${end.toolbar}; call stack ${JSON.stringify(end.stack.slice(0, 120))}; console ${JSON.stringify(end.console.split('\n').filter(Boolean).slice(-4))}`);
  await shot('vscode-debug-ended.png');

  await browser.close();
  const failed = results.filter((ok) => !ok).length;
  console.log(`vscode: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error('ERR', e);
  process.exit(1);
});
