// Tests of what the extension registers with VS Code's MCP support.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MCP_PROVIDER_ID, hasMcpApi, mcpArgs } from '../src/mcpDefinition';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('package.json contributes the MCP server definition provider the extension registers', () => {
  const ids = (pkg.contributes.mcpServerDefinitionProviders ?? []).map((p: { id: string }) => p.id);
  assert.deepEqual(ids, [MCP_PROVIDER_ID]);
});

test('the engine range still admits versions without MCP support', () => {
  assert.match(pkg.engines.vscode, /^\^1\.(\d+)\./);
  assert.ok(Number(/^\^1\.(\d+)\./.exec(pkg.engines.vscode)![1]) < 101);
});

test('mcpArgs', () => {
  assert.deepEqual(mcpArgs(undefined), ['mcp']);
  assert.deepEqual(mcpArgs(''), ['mcp']);
  assert.deepEqual(mcpArgs('/home/me/lean proj'), ['mcp', '--root', '/home/me/lean proj']);
});

test('hasMcpApi', () => {
  assert.equal(hasMcpApi(undefined), false);
  assert.equal(hasMcpApi({}), false);
  assert.equal(hasMcpApi({ registerMcpServerDefinitionProvider: 'no' }), false);
  assert.equal(hasMcpApi({ registerMcpServerDefinitionProvider: () => ({ dispose() {} }) }), true);
});
