// Pure helpers of the DRIFT extension: binary lookup, the server's settings
// object and environment, and the status-bar text. Nothing here imports
// `vscode`, so these run under `node --test`.
import * as fs from 'fs';
import * as path from 'path';

/** The command a user runs to install the server when it is missing. */
export const INSTALL_COMMAND = 'go install ./cmd/drift-lsp  # run in a checkout of the drift-lsp repository (or: make build, then put bin/drift-lsp on PATH)';

/** The server's executable name. */
export const SERVER_NAME = 'drift-lsp';

/**
 * The `drift.*` settings the server reads (section "drift"), by their dotted
 * names under the section. `drift.serverPath` is the extension's own.
 */
export const SERVER_SETTINGS = [
  'llm.baseUrl',
  'llm.model',
  'llm.apiKeyEnv',
  'llm.local',
  'llm.grammar',
  'embedding.provider',
  'embedding.modelDir',
  'embedding.baseUrl',
  'embedding.model',
  'roots',
  'corpus',
  'cacheDir',
  'repl.command',
  'repl.timeoutSeconds',
  'repl.poolSize',
  'repl.memoryMB',
  'lean.command',
  'lean.server',
  'pipeline.subQueries',
  'pipeline.k',
  'pipeline.m',
  'pipeline.samples',
  'pipeline.repairBudget',
  'pipeline.timeBudgetSeconds',
  'pipeline.concurrency',
  'maxJobs',
  'log.level',
  'log.file',
  'comments.enable',
  'comments.severity',
] as const;

/** Default API-key variable when neither the setting nor DRIFT_LLM_API_KEY_ENV names one. */
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

/** Returns a setting's value when the user set it explicitly, else undefined. */
export type ExplicitGetter = (key: string) => unknown;

/**
 * Builds the nested `drift` section from the settings the user set explicitly.
 * Unset settings are left out, so that the server's own defaults and its
 * environment fallbacks (DRIFT_LLM_BASE_URL, …) still apply to them.
 */
export function explicitSection(get: ExplicitGetter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTINGS) {
    const v = get(key);
    if (v === undefined || v === null) {
      continue;
    }
    const parts = key.split('.');
    let obj = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof obj[p] !== 'object' || obj[p] === null) {
        obj[p] = {};
      }
      obj = obj[p] as Record<string, unknown>;
    }
    obj[parts[parts.length - 1]] = v;
  }
  return out;
}

/**
 * The environment variable that carries the API key: the explicit
 * `drift.llm.apiKeyEnv`, else DRIFT_LLM_API_KEY_ENV, else OPENAI_API_KEY.
 */
export function apiKeyEnvName(explicit: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof explicit === 'string' && explicit.trim() !== '') {
    return explicit.trim();
  }
  const e = env.DRIFT_LLM_API_KEY_ENV?.trim();
  return e ? e : DEFAULT_API_KEY_ENV;
}

/** Returns true when `p` names an executable regular file. */
function isExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The server's file name on this platform (`drift-lsp.exe` on Windows). */
export function serverFileName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `${SERVER_NAME}.exe` : SERVER_NAME;
}

/**
 * Finds the server binary: the configured path first (a leading `~` is the
 * home directory), then the binary bundled in the extension's `bin`
 * directory (the platform-specific packages of `make dist` carry one), then
 * `drift-lsp` on PATH. Returns undefined when none exists; `configured` set
 * but missing is also undefined (the caller says so).
 */
export function findServer(configured: string, envPath: string | undefined, home: string, extensionDir?: string): string | undefined {
  const c = configured.trim();
  if (c !== '') {
    const p = c === '~' ? home : c.startsWith('~/') ? path.join(home, c.slice(2)) : c;
    return isExecutable(p) ? p : undefined;
  }
  if (extensionDir !== undefined) {
    const p = path.join(extensionDir, 'bin', serverFileName());
    if (isExecutable(p)) {
      return p;
    }
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, serverFileName());
    if (isExecutable(p)) {
      return p;
    }
  }
  return undefined;
}

/**
 * Says whether the server's version (from its serverInfo) differs from the
 * extension's: a warning for the user, or undefined when they match or the
 * server reports none. A leading `v` is ignored.
 */
export function versionMismatch(server: string | undefined, extension: string): string | undefined {
  if (server === undefined || server === '') {
    return undefined;
  }
  const bare = (v: string) => v.trim().replace(/^v/, '');
  if (bare(server) === bare(extension)) {
    return undefined;
  }
  return `the server is drift-lsp ${server} but the extension is ${extension}: features may not match. ` +
    'Clear drift.serverPath to use the server bundled with the extension, or install the matching server.';
}

/** One finding of `drift-lsp doctor --json` (cmd/internal/doctor's Item). */
export interface DoctorItem {
  section: string;
  name: string;
  state: 'ok' | 'missing' | 'off' | 'info';
  detail: string;
  fix?: string;
}

/** The report of `drift-lsp doctor --json` (cmd/internal/doctor's Report). */
export interface DoctorReport {
  version: string;
  platform: string;
  dir: string;
  items: DoctorItem[];
}

const STATE_MARK: Record<DoctorItem['state'], string> = { ok: '✓', missing: '✗', off: '–', info: '·' };

/**
 * Renders a doctor report as Markdown: a heading per section, a line per
 * finding, and under a missing piece the command that fixes it.
 */
export function statusMarkdown(r: DoctorReport): string {
  const lines = [`# DRIFT status`, '', `drift-lsp ${r.version} (${r.platform}) in \`${r.dir}\``];
  let section = '';
  for (const it of r.items) {
    if (it.section !== section) {
      section = it.section;
      lines.push('', `## ${section}`, '');
    }
    lines.push(`- ${STATE_MARK[it.state] ?? '?'} **${it.name}**: ${it.detail}`);
    if (it.fix) {
      lines.push(`  - fix: \`${it.fix}\``);
    }
  }
  const missing = r.items.filter((it) => it.state === 'missing').length;
  lines.push('', missing > 0 ? `${missing} missing; run the fix under each.` : 'Nothing missing.', '');
  return lines.join('\n');
}

/** The command that installs the local model, when the report says it is missing. */
export function missingModelFix(r: DoctorReport): string | undefined {
  return r.items.find((it) => it.section === 'model' && it.name === 'local model' && it.state === 'missing')?.fix;
}

/**
 * Builds the server's environment: the editor's own plus, when one is stored,
 * the API key in the variable `keyEnv`. The key lives only in memory.
 */
export function serverEnv(base: NodeJS.ProcessEnv, keyEnv: string, apiKey: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (apiKey !== undefined && apiKey !== '') {
    env[keyEnv] = apiKey;
  }
  return env;
}

/** A progress title without the server's "DRIFT: " prefix. */
export function bareTitle(title: string): string {
  return title.replace(/^DRIFT:\s*/, '');
}

/** The server's life-cycle state as the status bar shows it. */
export type ServerState = 'starting' | 'ready' | 'stopped' | 'missing';

/** What one piece of server progress last said. */
export interface ProgressState {
  title: string;
  message?: string;
  percentage?: number;
}

/**
 * The status-bar text: the newest running progress (index build or job stage)
 * with a spinner, else the index state.
 */
export function statusText(active: ProgressState[], state: ServerState): string {
  const cur = active[active.length - 1];
  if (cur !== undefined) {
    let t = `$(sync~spin) DRIFT: ${bareTitle(cur.title)}`;
    if (cur.message) {
      t += ` — ${cur.message}`;
    }
    if (cur.percentage !== undefined && !(cur.message ?? '').includes('%')) {
      t += ` ${Math.round(cur.percentage)}%`;
    }
    return t;
  }
  switch (state) {
    case 'starting':
      return '$(sync~spin) DRIFT: starting';
    case 'ready':
      return '$(check) DRIFT';
    case 'stopped':
      return '$(debug-stop) DRIFT: stopped';
    case 'missing':
      return '$(warning) DRIFT: drift-lsp not found';
  }
}

/**
 * The status item's accessible label (plain text, no icons): "DRIFT busy: …"
 * while progress runs, else "DRIFT ready", "DRIFT starting", and so on.
 */
export function statusLabel(active: ProgressState[], state: ServerState): string {
  const cur = active[active.length - 1];
  if (cur !== undefined) {
    return `DRIFT busy: ${bareTitle(cur.title)}${cur.message ? ` — ${cur.message}` : ''}`;
  }
  return state === 'missing' ? 'DRIFT: drift-lsp not found' : `DRIFT ${state}`;
}

/** Picks the first action whose title starts with one of `prefixes` (case-insensitive). */
export function pickAction<T extends { title: string }>(actions: readonly T[], prefixes: readonly string[]): T | undefined {
  for (const p of prefixes) {
    const lp = p.toLowerCase();
    const hit = actions.find((a) => a.title.toLowerCase().startsWith(lp));
    if (hit !== undefined) {
      return hit;
    }
  }
  return undefined;
}

const BLUEPRINT_ENV = /\\(begin|end)\{(definition|lemma|theorem|proposition|corollary)\*?\}/g;

/**
 * The label of the blueprint node (a definition, lemma, theorem, proposition or corollary
 * environment of a leanblueprint .tex file) around offset, or undefined: what "Formalize this
 * node" formalizes (the server's lsp/blueprint.go reads nodes the same way).
 */
export function blueprintLabelAt(text: string, offset: number): string | undefined {
  let start = -1;
  let end = text.length;
  for (const m of text.matchAll(BLUEPRINT_ENV)) {
    const at = m.index ?? 0;
    if (at > offset) {
      if (start >= 0 && m[1] === 'end') {
        end = at;
      }
      if (start >= 0) {
        break;
      }
      return undefined;
    }
    if (m[1] === 'begin') {
      start = at + m[0].length;
      end = text.length;
    } else if (at + m[0].length <= offset) {
      start = -1;
    }
  }
  if (start < 0) {
    return undefined;
  }
  const label = /\\label\{([^}]*)\}/.exec(text.slice(start, end));
  return label ? label[1].trim() : undefined;
}
