// Unit tests of the extension's pure helpers (run with `npm test`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  SERVER_SETTINGS,
  apiKeyEnvName,
  explicitSection,
  findServer,
  pickAction,
  serverEnv,
  statusLabel,
  statusText,
} from '../src/util';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('every server setting is contributed, and nothing else but serverPath', () => {
  const contributed = Object.keys(pkg.contributes.configuration.properties).sort();
  const expected = ['drift.serverPath', ...SERVER_SETTINGS.map((k) => `drift.${k}`)].sort();
  assert.deepEqual(contributed, expected);
});

/**
 * The dotted JSON names of lsp/settings.go's Settings struct, expanding
 * nested *Settings structs: the server's own list of setting names.
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

test('the setting names match the server (lsp/settings.go)', (t) => {
  const goFile = path.join(__dirname, '..', '..', '..', '..', 'lsp', 'settings.go');
  if (!fs.existsSync(goFile)) {
    t.skip('lsp/settings.go not found (extension built outside the repository)');
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
