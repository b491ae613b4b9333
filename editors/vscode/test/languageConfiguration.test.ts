// The extension must not change editing behaviour that the official Lean 4
// extension (vscode-lean4) defines: VS Code merges the language
// configurations of both field by field and the last loaded wins, so drift
// contributes only the comment markers, which equal vscode-lean4's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('the lean4 language configuration holds only the comment markers', () => {
  const langs = pkg.contributes.languages as Array<{ id: string; configuration?: string }>;
  const configured = langs.filter((l) => l.configuration !== undefined);
  assert.deepEqual(configured.map((l) => l.id), ['lean4']);
  const conf = JSON.parse(fs.readFileSync(path.join(root, configured[0].configuration as string), 'utf8'));
  assert.deepEqual(Object.keys(conf), ['comments']);
  assert.deepEqual(conf.comments, { lineComment: '--', blockComment: ['/-', '-/'] });
});

test('the lean4 language keeps vscode-lean4\'s name', () => {
  // VS Code shows the first alias of the merged contributions as the
  // language's name (status bar, language picker); vscode-lean4 declares none.
  const lean4 = (pkg.contributes.languages as Array<{ id: string; aliases?: string[] }>).find((l) => l.id === 'lean4');
  assert.equal(lean4?.aliases, undefined);
});

test('nothing else that could clash with vscode-lean4 is contributed', () => {
  const c = pkg.contributes;
  for (const key of ['grammars', 'keybindings', 'snippets', 'semanticTokenScopes', 'configurationDefaults']) {
    assert.equal(c[key], undefined, `contributes.${key}`);
  }
  for (const cmd of c.commands as Array<{ command: string }>) {
    assert.match(cmd.command, /^drift-client\./);
  }
  for (const name of Object.keys(c.configuration.properties)) {
    assert.match(name, /^drift\./);
  }
});
