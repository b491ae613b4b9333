// Unit tests of the extension's pure helpers (run with `npm test`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  SERVER_SETTINGS,
  apiKeyEnvName,
  blueprintLabelAt,
  explicitSection,
  findServer,
  missingModelFix,
  pickAction,
  serverEnv,
  statusLabel,
  statusMarkdown,
  statusText,
  versionMismatch,
} from '../src/util';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('every server setting is contributed, and nothing else but serverPath', () => {
  const contributed = Object.keys(pkg.contributes.configuration.properties).sort();
  const expected = ['drift.serverPath', ...SERVER_SETTINGS.map((k) => `drift.${k}`)].sort();
  assert.deepEqual(contributed, expected);
});

/**
 * The dotted JSON names of internal/settings/settings.go's Settings struct,
 * expanding nested structs and leaving out the fields without a JSON name
 * (`json:"-"`, the environment's only): the server's own list of setting
 * names.
 */
function serverSettingNames(goSrc: string): string[] {
  const structs = new Map<string, string>();
  for (const m of goSrc.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    structs.set(m[1], m[2]);
  }
  const walk = (type: string, prefix: string): string[] => {
    const body = structs.get(type);
    if (body === undefined) {
      return [];
    }
    const out: string[] = [];
    for (const m of body.matchAll(/^\s*(\w+(?:,\s*\w+)*)\s+(\S+)\s+`json:"([^",]+)/gm)) {
      const [, , fieldType, tag] = m;
      if (tag === '-') {
        continue;
      }
      if (structs.has(fieldType)) {
        out.push(...walk(fieldType, `${prefix}${tag}.`));
      } else {
        out.push(prefix + tag);
      }
    }
    return out;
  };
  return walk('Settings', '');
}

test('the setting names match the server (internal/settings/settings.go)', (t) => {
  const goFile = path.join(__dirname, '..', '..', '..', '..', 'internal', 'settings', 'settings.go');
  if (!fs.existsSync(goFile)) {
    t.skip('internal/settings/settings.go not found (extension built outside the repository)');
    return;
  }
  const names = serverSettingNames(fs.readFileSync(goFile, 'utf8'));
  assert.ok(names.includes('llm.baseUrl'), `parsed ${names.join(', ')}`);
  assert.deepEqual([...SERVER_SETTINGS].sort(), names.sort());
});

test('activation is explicit and the lean4 language is contributed', () => {
  assert.deepEqual(pkg.activationEvents, ['onLanguage:lean4']);
  assert.ok(pkg.contributes.languages.some((l: { id: string; extensions: string[] }) => l.id === 'lean4' && l.extensions.includes('.lean')));
});

test('explicitSection nests only the settings that were set', () => {
  const set: Record<string, unknown> = { 'llm.baseUrl': 'http://x/v1', 'pipeline.m': 2, 'log.level': 'debug', roots: ['/a'], 'llm.model': null };
  assert.deepEqual(explicitSection((k) => set[k]), {
    llm: { baseUrl: 'http://x/v1' },
    pipeline: { m: 2 },
    log: { level: 'debug' },
    roots: ['/a'],
  });
  assert.deepEqual(explicitSection(() => undefined), {});
});

test('apiKeyEnvName: setting, then DRIFT_LLM_API_KEY_ENV, then OPENAI_API_KEY', () => {
  assert.equal(apiKeyEnvName('MY_KEY', { DRIFT_LLM_API_KEY_ENV: 'OTHER' }), 'MY_KEY');
  assert.equal(apiKeyEnvName('  ', { DRIFT_LLM_API_KEY_ENV: 'OTHER' }), 'OTHER');
  assert.equal(apiKeyEnvName(undefined, {}), 'OPENAI_API_KEY');
});

test('serverEnv adds the key only when one is stored and keeps the rest', () => {
  const base = { PATH: '/bin', HOME: '/h' };
  assert.deepEqual(serverEnv(base, 'K', 'sk-1'), { PATH: '/bin', HOME: '/h', K: 'sk-1' });
  assert.deepEqual(serverEnv(base, 'K', undefined), base);
  assert.deepEqual(serverEnv(base, 'K', ''), base);
  assert.equal((base as Record<string, string>).K, undefined, 'base env is not modified');
});

test('findServer: configured path, then PATH, else undefined', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-find-'));
  const bin = path.join(dir, 'drift-lsp');
  fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
  const notExec = path.join(dir, 'plain');
  fs.writeFileSync(notExec, '', { mode: 0o644 });
  try {
    assert.equal(findServer(bin, '', '/nowhere'), bin);
    assert.equal(findServer(notExec, dir, '/nowhere'), undefined, 'a configured path that is not executable is not replaced by PATH');
    assert.equal(findServer('', `/does/not/exist${path.delimiter}${dir}`, '/nowhere'), bin);
    assert.equal(findServer('', '/does/not/exist', '/nowhere'), undefined);
    assert.equal(findServer('~/drift-lsp', '', dir), bin);
    assert.equal(findServer('', dir, '/nowhere'), bin);
    assert.equal(findServer('', undefined, '/nowhere'), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('findServer: serverPath, then the bundled binary, then PATH', () => {
  const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-ext-'));
  const onPath = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-path-'));
  const bundled = path.join(ext, 'bin', 'drift-lsp');
  const pathBin = path.join(onPath, 'drift-lsp');
  fs.mkdirSync(path.dirname(bundled));
  fs.writeFileSync(pathBin, '#!/bin/sh\n', { mode: 0o755 });
  try {
    assert.equal(findServer('', onPath, '/nowhere', ext), pathBin, 'no bundled binary: PATH');
    fs.writeFileSync(bundled, '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(findServer('', onPath, '/nowhere', ext), bundled, 'the bundled binary before PATH');
    assert.equal(findServer(pathBin, '', '/nowhere', ext), pathBin, 'drift.serverPath before the bundled binary');
  } finally {
    fs.rmSync(ext, { recursive: true, force: true });
    fs.rmSync(onPath, { recursive: true, force: true });
  }
});

test('versionMismatch', () => {
  for (const [server, ext, warns] of [
    ['0.2.0', '0.2.0', false],
    ['v0.2.0', '0.2.0', false],
    [undefined, '0.2.0', false],
    ['', '0.2.0', false],
    ['0.1.0', '0.2.0', true],
    ['dev-0123456789ab', '0.2.0', true],
  ] as const) {
    const w = versionMismatch(server, ext);
    assert.equal(w !== undefined, warns, `${server} vs ${ext}: ${w}`);
    if (w !== undefined) {
      assert.match(w, new RegExp(`${server}.*${ext}`));
    }
  }
});

test('statusMarkdown and missingModelFix on a doctor report', () => {
  const report = {
    version: '0.2.0',
    platform: 'linux/amd64',
    dir: '/w',
    items: [
      { section: 'workspace', name: 'root', state: 'info', detail: '/w (a Lake workspace)' },
      { section: 'model', name: 'endpoint', state: 'info', detail: 'none configured: the bundled local model runs' },
      { section: 'model', name: 'local model', state: 'missing', detail: 'not installed', fix: 'drift-lsp setup model' },
      { section: 'lean', name: 'lean', state: 'ok', detail: 'lake env lean' },
    ],
  } as const;
  const md = statusMarkdown({ ...report, items: [...report.items] });
  assert.equal(md, [
    '# DRIFT status', '', 'drift-lsp 0.2.0 (linux/amd64) in `/w`',
    '', '## workspace', '', '- · **root**: /w (a Lake workspace)',
    '', '## model', '', '- · **endpoint**: none configured: the bundled local model runs',
    '- ✗ **local model**: not installed', '  - fix: `drift-lsp setup model`',
    '', '## lean', '', '- ✓ **lean**: lake env lean',
    '', '1 missing; run the fix under each.', '',
  ].join('\n'));
  assert.equal(missingModelFix({ ...report, items: [...report.items] }), 'drift-lsp setup model');
  assert.equal(missingModelFix({ ...report, items: report.items.filter((it) => it.name !== 'local model') }), undefined);
});

test('status text and label', () => {
  assert.equal(statusText([], 'ready'), '$(check) DRIFT');
  assert.equal(statusLabel([], 'ready'), 'DRIFT ready');
  assert.equal(statusLabel([], 'missing'), 'DRIFT: drift-lsp not found');
  const job = [{ title: 'DRIFT: Formalize with DRIFT', message: 'Decomposing…' }];
  assert.equal(statusText(job, 'ready'), '$(sync~spin) DRIFT: Formalize with DRIFT — Decomposing…');
  assert.equal(statusLabel(job, 'ready'), 'DRIFT busy: Formalize with DRIFT — Decomposing…');
  assert.equal(statusText([{ title: 'Indexing', percentage: 41.6 }], 'starting'), '$(sync~spin) DRIFT: Indexing 42%');
  assert.equal(statusText([{ title: 'Indexing', message: 'indexing, 40%', percentage: 40 }], 'ready'), '$(sync~spin) DRIFT: Indexing — indexing, 40%');
});

test('pickAction matches title prefixes in order, case-insensitively', () => {
  const acts = [{ title: 'Find premises and examples' }, { title: 'Formalize with DRIFT' }];
  assert.equal(pickAction(acts, ['formalize'])?.title, 'Formalize with DRIFT');
  assert.equal(pickAction(acts, ['Find premises'])?.title, 'Find premises and examples');
  assert.equal(pickAction(acts, ['Check']), undefined);
});

test('blueprintLabelAt finds the node around the cursor', () => {
  const tex = '\\begin{lemma}\\label{lem:a}\nA.\n\\end{lemma}\nbetween\n\\begin{theorem*}B \\label{thm:b}\\end{theorem*}';
  assert.equal(blueprintLabelAt(tex, tex.indexOf('A.')), 'lem:a');
  assert.equal(blueprintLabelAt(tex, tex.indexOf('between')), undefined);
  assert.equal(blueprintLabelAt(tex, tex.indexOf('B ')), 'thm:b');
  assert.equal(blueprintLabelAt('no nodes', 2), undefined);
});
