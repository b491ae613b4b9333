// End-to-end test of the DRIFT VS Code extension in real VS Code (code-server),
// driven through Debian's Chromium with playwright-core.
//
// It copies testdata/workspace to a temp dir, starts the fake OpenAI-compatible
// model server and code-server (each in its own process group, HOME and XDG_*
// in the temp dir, fresh user-data and extensions dirs, the extension
// installed from the built .vsix), then in the browser: opens Demo.lean, runs
// "Formalize with DRIFT" from the quick-fix menu on a docstring, waits for the
// job, saves, and checks the file on disk; runs "Find premises and examples"
// likewise, and "DRIFT: Formalize statement" from the command palette; runs
// hovers a name in a comment and applies the quick fix of a stale reference;
// "DRIFT: Search library", opening the chosen declaration;
// stores an API key (checking it reaches no log), reindexes, and shows
// "DRIFT: Show status". Without DRIFT_LSP_BIN it tests the shipped package:
// no drift.serverPath and no drift-lsp on PATH, so the server that runs is
// the one inside the .vsix (make dist), of the extension's own version.
// Screenshots go to editors/e2e/artifacts/. Exit status 0 means every step
// passed.
//
// Inputs (environment): DRIFT_LSP_BIN (optional), FAKELLM_BIN, DRIFT_VSIX, CODE_SERVER
// (entry.js), NODE24 (node binary), CHROMIUM (default /usr/bin/chromium),
// E2E_KEEP=1 keeps the temp dir.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const artifacts = path.join(here, 'artifacts');
const need = (name) => {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set (run editors/e2e/run.sh)`);
  }
  return v;
};

const t0 = Date.now();
const log = (msg) => console.log(`[vscode-e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

/** Children started by this script, stopped by process group at the end. */
const children = [];

function startGroup(name, cmd, args, opts) {
  const logFile = path.join(opts.logDir, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', out] });
  child.stdout.on('data', (b) => fs.appendFileSync(logFile, b));
  children.push({ name, child });
  return { child, logFile };
}

async function stopAll() {
  for (const { name, child } of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) {
      continue;
    }
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      continue;
    }
    const exited = await Promise.race([
      new Promise((r) => child.once('exit', () => r(true))),
      sleep(5000).then(() => false),
    ]);
    if (!exited) {
      log(`${name} did not stop on SIGTERM; killing its group`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, fn, timeoutMs, intervalMs = 250) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) {
        return v;
      }
    } catch (err) {
      last = err;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? `: ${last.message}` : ''}`);
}

/** Starts the fake model server; returns the base URL it prints. */
async function startFakeLLM(bin, env, logDir) {
  const { child, logFile } = startGroup('fakellm', bin, ['-addr', '127.0.0.1:0'], { env, logDir });
  let buf = '';
  const url = await waitFor('the fake model server to print its URL', async () => {
    if (child.exitCode !== null) {
      throw new Error(`fakellm exited with ${child.exitCode}; see ${logFile}`);
    }
    buf = fs.readFileSync(logFile, 'utf8');
    const m = buf.match(/https?:\/\/127\.0\.0\.1:\d+[^\s"]*/);
    return m ? m[0] : undefined;
  }, 20000, 100);
  return url;
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (b) => (out += b));
    p.stderr.on('data', (b) => (out += b));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** The visible text of the active editor, lines in order (the file is short enough to be all visible). */
async function editorText(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line')];
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((l) => l.textContent.replace(/\u00a0/g, ' ')).join('\n');
  });
}

async function shot(page, name) {
  const p = path.join(artifacts, name);
  // Let finished progress notifications fade out first.
  await waitFor('notifications to close', async () => (await page.locator('.notification-toast').count()) === 0, 3000, 200).catch(() => {});
  await page.screenshot({ path: p });
  log(`screenshot ${path.relative(repo, p)}`);
  return p;
}

/**
 * Closes what other extensions may put over the editor: modal dialogs (the
 * official Lean 4 extension asks "Lean is not installed… Install Elan?" when
 * no Lean is found) and notification toasts. Returns how many it closed.
 */
async function dismissDialogs(page) {
  let closed = 0;
  for (let i = 0; i < 5; i++) {
    const dialog = page.locator('.monaco-dialog-box');
    if (!(await dialog.isVisible().catch(() => false))) {
      break;
    }
    const text = ((await dialog.innerText().catch(() => '')) || '').split('\n')[0];
    const cancel = dialog.locator('.dialog-buttons .monaco-button', { hasText: /^(Cancel|Close|No|Not now|Later|Don't)/i });
    if ((await cancel.count().catch(() => 0)) > 0) {
      await cancel.first().click({ timeout: 2000 }).catch(() => page.keyboard.press('Escape'));
    } else {
      await page.keyboard.press('Escape');
    }
    log(`dismissed a dialog: "${text}"`);
    closed++;
    await sleep(300);
  }
  const toastClose = page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear');
  for (let i = 0; i < 10 && (await toastClose.first().isVisible().catch(() => false)); i++) {
    await toastClose.first().click({ timeout: 2000 }).catch(() => {});
    closed++;
  }
  return closed;
}

/**
 * Opens the quick-fix menu on the line showing `needle` and picks the action
 * titled `title` (with `back`, the cursor is put that many characters before
 * the end of the line, on a reference). Every attempt first closes dialogs and toasts, and every
 * step of it (the click into the text, Ctrl+., the click on the action) is
 * retried inside the loop: nothing depends on when another extension's
 * dialog appears.
 */
async function quickFix(page, needle, title, back) {
  const row = page.locator('.action-widget .monaco-list-row', { hasText: title });
  for (let attempt = 1; attempt <= 8; attempt++) {
    try {
      await dismissDialogs(page);
      if (back === undefined) {
        // Clicking the text puts the cursor inside the comment and focuses the editor.
        await page.locator('.editor-group-container.active .view-line', { hasText: needle }).first().click({ timeout: 5000 });
      } else {
        await cursorNearEnd(page, needle, back);
      }
      await sleep(300);
      await page.keyboard.press('Control+.');
      await row.first().waitFor({ state: 'visible', timeout: 4000 });
      await row.first().click({ timeout: 5000 });
      return attempt;
    } catch (err) {
      log(`quick-fix "${title}" failed (attempt ${attempt}: ${err.message.split('\n')[0]}); retrying`);
      if (process.env.E2E_DEBUG) {
        await shot(page, `debug-quickfix-${attempt}.png`);
      }
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
  }
  throw new Error(`the quick-fix menu never offered "${title}"`);
}

/**
 * Puts the cursor `back` characters before the end of the line showing
 * `needle`, scrolling to the end of the file when the line is not in view
 * (clicking the text focuses the editor; End is exact where a click is not).
 */
async function cursorNearEnd(page, needle, back) {
  const line = page.locator('.editor-group-container.active .view-line', { hasText: needle });
  if ((await line.count()) === 0) {
    // The editor renders only the lines in view: the references are at the
    // end of the file, so scroll there first.
    await page.locator('.editor-group-container.active .view-line').first().click({ timeout: 5000 });
    await page.keyboard.press('Control+End');
  }
  await line.first().click({ timeout: 5000 });
  await page.keyboard.press('End');
  for (let i = 0; i < back; i++) {
    await page.keyboard.press('ArrowLeft');
  }
}

/**
 * Shows the hover at the cursor ("Show or Focus Hover", Ctrl+K Ctrl+I) of
 * the reference ending the line showing `needle` and returns its text once
 * it contains `want`. Dialogs are closed and every step retried inside the
 * loop.
 */
async function hoverText(page, needle, want) {
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content');
  return waitFor(`a hover containing "${want}"`, async () => {
    await dismissDialogs(page);
    await page.keyboard.press('Escape');
    await cursorNearEnd(page, needle, 3);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await hover.first().waitFor({ state: 'visible', timeout: 4000 });
    const t = (await hover.allInnerTexts()).join('\n');
    return t.includes(want) ? t : undefined;
  }, 90000, 500);
}

/** Runs a command from the command palette by its title. */
async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^DRIFT: /, '') });
  // Every step is retried after closing dialogs, as in quickFix.
  await waitFor(`"${title}" in the command palette`, async () => {
    await dismissDialogs(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 5000 });
    await input.fill(`>${title}`);
    await row.first().waitFor({ state: 'visible', timeout: 5000 });
    await page.keyboard.press('Enter');
    return true;
  }, 60000, 500);
}

/** Every file under dir (recursively) whose name matches re. */
function findFiles(dir, re) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      out.push(...findFiles(p, re));
    } else if (re.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

/** Records, in the page, every "DRIFT busy: …" label the status-bar item shows. */
async function recordBusyLabels(page) {
  await page.evaluate(() => {
    window.__driftBusy = [];
    const bar = document.querySelector('.part.statusbar');
    const seen = () => {
      for (const e of bar.querySelectorAll('.statusbar-item')) {
        const l = e.getAttribute('aria-label') || '';
        if (l.startsWith('DRIFT busy') && !window.__driftBusy.includes(l)) {
          window.__driftBusy.push(l);
        }
      }
    };
    new MutationObserver(seen).observe(bar, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

async function statusBarText(page) {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('.statusbar-item')];
    const it = items.find((e) => (e.textContent || '').includes('DRIFT') || (e.getAttribute('aria-label') || '').includes('DRIFT'));
    return it ? (it.getAttribute('aria-label') || it.textContent || '').trim() : '';
  });
}

async function save(page, file, before) {
  // A dialog of another extension can swallow Ctrl+S: close dialogs and press
  // it again until the file changes on disk.
  return waitFor(`${path.basename(file)} to be saved`, async () => {
    await dismissDialogs(page);
    await page.keyboard.press('Control+S');
    return waitFor('the file to change on disk', () => {
      const now = fs.readFileSync(file, 'utf8');
      return now !== before ? now : undefined;
    }, 3000, 100).catch(() => undefined);
  }, 30000, 0);
}

/** Checks that every line of `orig` is still in `now`, in order. */
function assertKept(orig, now, what) {
  const nowLines = now.split('\n');
  let j = 0;
  for (const l of orig.split('\n')) {
    while (j < nowLines.length && nowLines[j] !== l) {
      j++;
    }
    if (j === nowLines.length) {
      throw new Error(`${what}: original line lost or reordered: ${JSON.stringify(l)}`);
    }
    j++;
  }
}

async function main() {
  // Unset: the server bundled in the .vsix, with none on PATH.
  const driftBin = process.env.DRIFT_LSP_BIN || undefined;
  const fakeBin = need('FAKELLM_BIN');
  const vsix = need('DRIFT_VSIX');
  const codeServer = need('CODE_SERVER');
  const node24 = need('NODE24');
  const chromiumBin = process.env.CHROMIUM || '/usr/bin/chromium';
  fs.mkdirSync(artifacts, { recursive: true });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-vscode-e2e-'));
  const dirs = {};
  for (const d of ['home', 'config', 'data', 'cache', 'state', 'runtime', 'userdata', 'extensions', 'profile', 'logs', 'driftcache']) {
    dirs[d] = path.join(tmp, d);
    fs.mkdirSync(dirs[d], { recursive: true, mode: 0o700 });
  }
  const ws = path.join(tmp, 'workspace');
  fs.cpSync(path.join(repo, 'testdata/workspace'), ws, { recursive: true });
  const demo = path.join(ws, 'DriftExample/Demo.lean');
  // Two references in comments for step 4: a live one to hover and a stale
  // one (a typo of the theorem above) to fix. Each ends its line, so End and
  // a few ArrowLefts put the cursor inside it.
  fs.writeFileSync(demo, fs.readFileSync(demo, 'utf8').replace(/^end DriftExample\.Demo$/m,
    '-- The lattice fact above is `inf_le_sup`\n-- and here is a stale reference to it: `inf_le_sp`\n\nend DriftExample.Demo'));
  const original = fs.readFileSync(demo, 'utf8');
  if (!original.includes('`inf_le_sp`')) {
    throw new Error('could not add the comment references to Demo.lean');
  }
  log(`temp dir ${tmp}`);

  // Without DRIFT_LSP_BIN, no directory holding a drift-lsp stays on PATH.
  const searchPath = process.env.PATH.split(':')
    .filter((d) => driftBin !== undefined || !fs.existsSync(path.join(d, 'drift-lsp'))).join(':');
  const baseEnv = {
    PATH: searchPath,
    LANG: 'C.UTF-8',
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    XDG_RUNTIME_DIR: dirs.runtime,
    TMPDIR: tmp,
  };
  let browser;
  let page;
  let ok = false;
  try {
    const llmURL = await startFakeLLM(fakeBin, baseEnv, dirs.logs);
    log(`fake model server at ${llmURL}`);

    // User settings, and the same as the remote machine's settings, where
    // code-server takes machine-scoped settings such as drift.serverPath from.
    const settings = JSON.stringify({
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'workbench.enableExperiments': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'extensions.ignoreRecommendations': true,
      'chat.disableAIFeatures': true,
      'git.enabled': false,
      'files.autoSave': 'off',
      'editor.minimap.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'window.restoreWindows': 'none',
      ...(driftBin !== undefined ? { 'drift.serverPath': driftBin } : {}),
      'drift.cacheDir': dirs.driftcache,
      'drift.log.level': 'debug',
      'drift.log.file': path.join(dirs.logs, 'drift-lsp.log'),
    }, null, 2);
    for (const d of ['User', 'Machine']) {
      fs.mkdirSync(path.join(dirs.userdata, d), { recursive: true });
      fs.writeFileSync(path.join(dirs.userdata, d, 'settings.json'), settings);
    }

    const csEnv = {
      ...baseEnv,
      PATH: [path.dirname(node24), ...(driftBin !== undefined ? [path.dirname(driftBin)] : []), searchPath].join(':'),
      DRIFT_LLM_BASE_URL: llmURL,
      DRIFT_LLM_MODEL: 'fake-model',
      DRIFT_LLM_API_KEY_ENV: 'DRIFT_E2E_API_KEY',
      DRIFT_E2E_API_KEY: 'e2e-not-a-secret',
    };
    const csArgs = ['--user-data-dir', dirs.userdata, '--extensions-dir', dirs.extensions];
    let tInstall = Date.now();
    await run(node24, [codeServer, ...csArgs, '--install-extension', vsix], { env: csEnv, cwd: tmp });
    const installed = fs.readdirSync(dirs.extensions).filter((d) => d.startsWith('drift-lsp.drift-lsp-'));
    if (installed.length !== 1) {
      throw new Error(`extension not installed: ${fs.readdirSync(dirs.extensions).join(', ')}`);
    }
    log(`installed ${installed[0]} from ${path.basename(vsix)} in ${((Date.now() - tInstall) / 1000).toFixed(1)}s`);
    const extVersion = JSON.parse(fs.readFileSync(path.join(dirs.extensions, installed[0], 'package.json'), 'utf8')).version;
    const bundled = path.join(dirs.extensions, installed[0], 'bin', 'drift-lsp');
    if (driftBin === undefined) {
      fs.accessSync(bundled, fs.constants.X_OK);
      const v = await run(bundled, ['version'], { env: baseEnv, cwd: tmp });
      if (!v.startsWith(`drift-lsp ${extVersion} `)) {
        throw new Error(`the bundled server says ${JSON.stringify(v)}, not version ${extVersion}`);
      }
      log(`the package carries its server: ${v.trim()}`);
    }

    const port = await freePort();
    const { child: cs, logFile: csLog } = startGroup('code-server', node24, [
      codeServer, ...csArgs,
      '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
      '--disable-getting-started-override', '--ignore-last-opened', ws,
    ], { env: csEnv, cwd: ws, logDir: dirs.logs });
    const base = `http://127.0.0.1:${port}`;
    await waitFor('code-server to answer', async () => {
      if (cs.exitCode !== null) {
        throw new Error(`code-server exited ${cs.exitCode}; see ${csLog}`);
      }
      const r = await fetch(`${base}/healthz`);
      return r.ok;
    }, 60000);
    log(`code-server up on ${base}`);

    browser = await chromium.launchPersistentContext(dirs.profile, {
      executablePath: chromiumBin,
      headless: true,
      viewport: { width: 1440, height: 1100 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
      env: { ...baseEnv },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(30000);
    await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120000 });
    await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 120000 });
    log('workbench loaded');

    // Open Demo.lean through Quick Open.
    await waitFor('Quick Open to show Demo.lean', async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill('Demo.lean');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo.lean' });
      await row.first().waitFor({ state: 'visible', timeout: 5000 });
      await page.keyboard.press('Enter');
      await page.locator('.tab.active', { hasText: 'Demo.lean' }).waitFor({ state: 'visible', timeout: 5000 });
      return true;
    }, 60000, 500);
    await waitFor('Demo.lean text in the editor', async () => (await editorText(page)).includes('namespace DriftExample.Demo'), 30000);
    const status = await waitFor('the DRIFT status-bar item', async () => {
      const s = await statusBarText(page);
      return s === 'DRIFT ready' ? s : undefined;
    }, 120000, 500);
    log(`extension active; status bar: "${status}"`);

    // 1. Formalize with DRIFT on the first docstring.
    await recordBusyLabels(page);
    const tries = await quickFix(page, 'Every prime number greater than 2 is odd', 'Formalize with DRIFT');
    log(`"Formalize with DRIFT" chosen (quick-fix attempt ${tries})`);
    await waitFor('the formalized stub to appear in the editor', async () => {
      const t = await editorText(page);
      const lines = t.split('\n');
      const i = lines.findIndex((l) => l.includes('Every prime number greater than 2 is odd'));
      const after = lines.slice(i + 1, i + 8).join('\n');
      return /\btheorem\b/.test(after) && /sorry/.test(after) ? t : undefined;
    }, 120000, 500);
    await waitFor('the job progress to finish', async () => (await statusBarText(page)) === 'DRIFT ready', 60000, 500);
    const busy = await page.evaluate(() => window.__driftBusy);
    if (!busy.some((l) => /Formalize/.test(l))) {
      throw new Error(`the status bar never showed the formalize job's stage; saw ${JSON.stringify(busy)}`);
    }
    log(`status bar during the job: ${busy.join(' | ')}`);
    await shot(page, 'vscode-formalize.png');
    const afterFormalize = await save(page, demo, original);
    assertKept(original, afterFormalize, 'formalize');
    {
      const lines = afterFormalize.split('\n');
      const i = lines.findIndex((l) => l.includes('Every prime number greater than 2 is odd'));
      const next = lines.slice(i + 1).find((l) => l.trim() !== '');
      if (!/^\s*(theorem|lemma)\s+\S+/.test(next ?? '')) {
        throw new Error(`formalize: expected a theorem right after the docstring on disk, got ${JSON.stringify(next)}`);
      }
      const stub = lines.slice(lines.indexOf(next)).join('\n').split(/\n\s*\n/)[0];
      if (!/:=\s*by\s+sorry|:=\s*sorry/.test(stub)) {
        throw new Error(`formalize: the stub on disk has no \`:= by sorry\`:\n${stub}`);
      }
      log(`formalize OK; on disk:\n${stub}`);
    }

    // 2. Find premises and examples on the block comment.
    await quickFix(page, 'The greatest common divisor of two distinct prime numbers is 1', 'Find premises and examples');
    log('"Find premises and examples" chosen');
    await waitFor('the premises block to appear in the editor', async () => (await editorText(page)).includes('DRIFT premises and examples'), 120000, 500);
    await waitFor('the job progress to finish', async () => (await statusBarText(page)) === 'DRIFT ready', 60000, 500);
    await shot(page, 'vscode-find-premises.png');
    const afterPremises = await save(page, demo, afterFormalize);
    assertKept(afterFormalize, afterPremises, 'find premises');
    const block = afterPremises.match(/\/- DRIFT premises and examples\n([\s\S]*?)-\//);
    if (!block) {
      throw new Error('find premises: no premises block on disk');
    }
    const firstPremise = block[1].match(/Premises:\s*\n\s*([^\n]+)/)?.[1];
    if (!firstPremise || firstPremise.includes('none found')) {
      throw new Error(`find premises: the block lists no premise:\n${block[1]}`);
    }
    log(`find premises OK; first premise: ${firstPremise}`);

    // 3. DRIFT: Formalize statement from the command palette, on the run of -- comments.
    await waitFor('a click on the -- comments', async () => {
      await dismissDialogs(page);
      await page.locator('.editor-group-container.active .view-line', { hasText: 'then it divides one of the two factors' }).first().click({ timeout: 5000 });
      return true;
    }, 60000, 500);
    await runCommand(page, 'DRIFT: Formalize statement');
    await waitFor('the stub after the -- comments', async () => {
      const lines = (await editorText(page)).split('\n');
      const i = lines.findIndex((l) => l.includes('then it divides one of the two factors'));
      return /^\s*theorem\s/.test(lines.slice(i + 1).find((l) => l.trim() !== '') ?? '');
    }, 120000, 500);
    await waitFor('the job progress to finish', async () => (await statusBarText(page)) === 'DRIFT ready', 60000, 500);
    const afterCommand = await save(page, demo, afterPremises);
    assertKept(afterPremises, afterCommand, 'formalize command');
    {
      const lines = afterCommand.split('\n');
      const i = lines.findIndex((l) => l.includes('then it divides one of the two factors'));
      const next = lines.slice(i + 1).find((l) => l.trim() !== '');
      if (!/^\s*theorem\s+\S+/.test(next ?? '')) {
        throw new Error(`formalize command: expected a theorem after the -- comments on disk, got ${JSON.stringify(next)}`);
      }
      log(`"DRIFT: Formalize statement" OK: ${next.trim()}`);
    }

    // 4. Names in comments: the hover of a live reference, and the quick fix
    // of a stale one, applied to the document and saved.
    const hover = await hoverText(page, 'The lattice fact above is', 'inf_le_sup');
    if (!/theorem/.test(hover) || !/Demo\.lean|DriftExample\.Demo/.test(hover)) {
      throw new Error(`hover: expected the theorem's kind and module, got ${JSON.stringify(hover)}`);
    }
    log(`hover OK: ${hover.replace(/\s+/g, ' ').slice(0, 160)}`);
    await shot(page, 'vscode-hover.png');
    await page.keyboard.press('Escape');
    const fixTitle = 'Replace `inf_le_sp` by `inf_le_sup`';
    await quickFix(page, 'here is a stale reference to it', fixTitle, 3);
    log(`"${fixTitle}" chosen`);
    await waitFor('the reference to be rewritten in the editor', async () =>
      (await editorText(page)).includes('here is a stale reference to it: `inf_le_sup`'), 30000, 300);
    await shot(page, 'vscode-reference-fixed.png');
    const afterFix = await save(page, demo, afterCommand);
    if (!afterFix.includes('-- and here is a stale reference to it: `inf_le_sup`\n') || afterFix.includes('`inf_le_sp`')) {
      throw new Error('quick fix: the stale reference was not rewritten on disk');
    }
    assertKept(afterCommand.replace('`inf_le_sp`', '`inf_le_sup`'), afterFix, 'reference quick fix');
    log('stale-reference quick fix OK on disk');

    // 5. DRIFT: Search library through the command palette.
    await runCommand(page, 'DRIFT: Search library');
    const cmdInput = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'DRIFT: Search library' }).waitFor({ state: 'visible' });
    // Re-type until real hits come (the index may still be loading).
    const hits = await waitFor('search hits for "prime number"', async () => {
      await cmdInput.fill('');
      await cmdInput.fill('prime number');
      await sleep(1500);
      const rows = await page.locator('.quick-input-list .monaco-list-row').allTextContents();
      return rows.length > 0 && !/No declarations found|indexing/.test(rows[0]) ? rows : undefined;
    }, 60000, 500);
    log(`search library: ${hits.length} hits, first: ${hits[0].replace(/\s+/g, ' ').slice(0, 120)}`);
    await shot(page, 'vscode-search-library.png');
    // Choose the first hit declared outside the open file, so that opening
    // it shows as a new active tab.
    const pick = hits.findIndex((r) => !r.includes('Demo.lean'));
    if (pick < 0) {
      throw new Error(`search library: every hit is in Demo.lean: ${hits.join(' | ')}`);
    }
    const chosen = page.locator('.quick-input-list .monaco-list-row').nth(pick);
    const hitLabel = (await chosen.locator('.label-name').first().textContent()).trim();
    for (let i = 0; i < pick; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const opened = await waitFor('the chosen declaration to open', async () => {
      const tab = (await page.locator('.tab.active').first().textContent()).trim();
      return tab && !tab.startsWith('Demo.lean') ? tab : undefined;
    }, 30000, 300);
    const openedText = await editorText(page);
    const short = hitLabel.split('.').pop();
    if (!openedText.includes(short)) {
      throw new Error(`search library: opened ${opened} but "${short}" is not visible in it`);
    }
    await shot(page, 'vscode-search-opened.png');
    log(`search library OK: "${hitLabel}" opened in ${opened}`);

    // 6. DRIFT: Set API key: stored in SecretStorage, the server restarts with
    // it in its environment, and it appears in no log.
    const secret = `sk-e2e-${Date.now()}-do-not-log`;
    await runCommand(page, 'DRIFT: Set API key');
    const keyInput = page.locator('.quick-input-widget input[type="password"]');
    await keyInput.waitFor({ state: 'visible' });
    await keyInput.fill(secret);
    await page.keyboard.press('Enter');
    await page.locator('.notification-toast', { hasText: 'API key stored' }).waitFor({ state: 'visible' });
    await runCommand(page, 'DRIFT: Show log');
    // The DRIFT output channel is a log channel backed by DRIFT.log.
    await waitFor('the DRIFT log to say the server restarted with the stored key', async () =>
      findFiles(dirs.userdata, /^DRIFT\.log$/).some((f) => fs.readFileSync(f, 'utf8').includes('API key from secret storage in $DRIFT_E2E_API_KEY')), 30000, 500);
    await page.locator('.part.panel .monaco-editor').first().waitFor({ state: 'visible' });
    await waitFor('the restarted server to be ready', async () => (await statusBarText(page)) === 'DRIFT ready', 60000, 500);
    await shot(page, 'vscode-log.png');
    const logs = [...findFiles(dirs.userdata, /\.log$/), ...findFiles(dirs.logs, /\.log$/)];
    const leaked = logs.filter((f) => fs.readFileSync(f, 'utf8').includes(secret));
    if (leaked.length > 0) {
      throw new Error(`the API key leaked into ${leaked.join(', ')}`);
    }
    log(`set API key OK: server restarted; the key is in none of ${logs.length} log files`);

    // 7. DRIFT: Reindex workspace.
    await runCommand(page, 'DRIFT: Reindex workspace');
    await sleep(500);
    await waitFor('the reindex to finish', async () => (await statusBarText(page)) === 'DRIFT ready', 60000, 500);
    log('reindex OK');

    // 8. DRIFT: Show status: drift-lsp doctor's report in an editor; the
    // server that runs is the bundled one, of the extension's version (no
    // version warning).
    await runCommand(page, 'DRIFT: Show status');
    await waitFor('the status report', async () => (await editorText(page)).includes('# DRIFT status'), 30000, 250);
    const report = await editorText(page);
    // The editor's drift.cacheDir reaches doctor: it sees the index the server stored there.
    for (const want of ['## workspace', `**cache**: ${dirs.driftcache}`, '✓ **snapshot**', '## model',
      'fake-model at http://127.0.0.1:', '## lean', '## embeddings']) {
      if (!report.includes(want)) {
        throw new Error(`the status report lacks ${want}:\n${report}`);
      }
    }
    await shot(page, 'vscode-status.png');
    if (driftBin === undefined) {
      if (!report.includes(`drift-lsp ${extVersion} `)) {
        throw new Error(`the status report is not from drift-lsp ${extVersion}:\n${report}`);
      }
      const servers = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => {
        try {
          return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      }).filter((argv) => argv[1] === 'serve' && path.basename(argv[0]) === 'drift-lsp' && argv[0].startsWith(dirs.extensions));
      if (servers.length === 0) {
        throw new Error(`no drift-lsp serve runs from ${bundled}`);
      }
    }
    if (await page.locator('.notification-toast', { hasText: 'features may not match' }).count() > 0) {
      throw new Error('the extension warned about a version mismatch');
    }
    log(`show status OK${driftBin === undefined ? `: the bundled drift-lsp ${extVersion} serves, none is on PATH` : ''}`);
    ok = true;
  } catch (err) {
    console.error(`[vscode-e2e] FAIL: ${err.stack || err}`);
    if (page) {
      await shot(page, 'vscode-failure.png').catch(() => {});
    }
    for (const f of fs.existsSync(dirs.logs) ? fs.readdirSync(dirs.logs) : []) {
      const p = path.join(dirs.logs, f);
      const text = fs.readFileSync(p, 'utf8');
      fs.writeFileSync(path.join(artifacts, `vscode-${f}`), text);
      console.error(`--- ${f} (last 40 lines) ---\n${text.split('\n').slice(-40).join('\n')}`);
    }
  } finally {
    if (browser) {
      await browser.close().catch(() => {});
    }
    await stopAll();
    if (ok && !process.env.E2E_KEEP) {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  log(ok ? 'PASS' : 'FAIL');
  process.exit(ok ? 0 : 1);
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
process.on('SIGTERM', () => void stopAll().then(() => process.exit(143)));
await main();
