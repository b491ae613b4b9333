// registerMcpServer against a stand-in for the `vscode` module that has the
// MCP API of VS Code 1.101+ (the shape of code-server 1.139.1's extension
// host: lm.registerMcpServerDefinitionProvider(id, provider) and
// McpStdioServerDefinition(label, command, args, env)), and one without it.
/// <reference types="vscode" />
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Module = require('node:module');

type Provider = { provideMcpServerDefinitions(): Promise<unknown[]> };

/** A stand-in `vscode` module; `withMcp` gives it VS Code 1.101's MCP API. */
function fakeVscode(withMcp: boolean, folder: string, serverPath: string) {
  const registered: { id: string; provider: Provider }[] = [];
  const disposable = { dispose() {} };
  const event = () => disposable;
  const fake: Record<string, unknown> = {
    version: withMcp ? '1.139.1' : '1.91.0',
    EventEmitter: class {
      event = event;
      fire() {}
      dispose() {}
    },
    workspace: {
      workspaceFolders: [{ uri: { fsPath: folder } }],
      getConfiguration: () => ({ get: (k: string) => (k === 'serverPath' ? serverPath : undefined) }),
      onDidChangeWorkspaceFolders: event,
      onDidChangeConfiguration: event,
    },
  };
  if (withMcp) {
    fake.lm = {
      registerMcpServerDefinitionProvider(id: string, provider: Provider) {
        registered.push({ id, provider });
        return disposable;
      },
    };
    fake.McpStdioServerDefinition = class {
      constructor(public label: string, public command: string, public args?: string[], public env?: Record<string, string>) {}
    };
  }
  return { fake, registered };
}

/** Loads src/mcp with `vscode` resolved to fake. */
function loadWith(fake: unknown): typeof import('../src/mcp') {
  const mod = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = (req: string, ...rest: unknown[]) => (req === 'vscode' ? fake : load(req, ...rest));
  try {
    const p = require.resolve('../src/mcp');
    delete require.cache[p];
    return require(p);
  } finally {
    mod._load = load;
  }
}

function context() {
  const subscriptions: unknown[] = [];
  return { subscriptions, secrets: { onDidChange: () => ({ dispose() {} }) } };
}

const logs: string[] = [];
const log = { info: (m: string) => logs.push(m) };

test('registers drift-lsp mcp on the first workspace folder where VS Code has the MCP API', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-mcp-'));
  const bin = path.join(dir, 'drift-lsp');
  fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
  const { fake, registered } = fakeVscode(true, '/ws/proj', bin);
  const ok = loadWith(fake).registerMcpServer(context() as never, async () => ({ OPENAI_API_KEY: 'k' }), log as never);
  assert.equal(ok, true);
  assert.equal(registered.length, 1);
  assert.equal(registered[0].id, 'drift.mcpServers');
  const defs = await registered[0].provider.provideMcpServerDefinitions();
  assert.deepEqual(JSON.parse(JSON.stringify(defs)), [
    { label: 'DRIFT (drift-lsp mcp)', command: bin, args: ['mcp', '--root', '/ws/proj'], env: { OPENAI_API_KEY: 'k' } },
  ]);
});

test('offers no definition when drift-lsp is not found', async () => {
  const { fake, registered } = fakeVscode(true, '/ws/proj', '/nonexistent/drift-lsp');
  loadWith(fake).registerMcpServer(context() as never, async () => ({}), log as never);
  assert.deepEqual(await registered[0].provider.provideMcpServerDefinitions(), []);
});

test('activates without registering on a VS Code without the MCP API', () => {
  const { fake } = fakeVscode(false, '/ws/proj', '');
  logs.length = 0;
  assert.equal(loadWith(fake).registerMcpServer(context() as never, async () => ({}), log as never), false);
  assert.match(logs.join('\n'), /has no MCP server API/);
});
