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
  'pipeline.subQueries',
  'pipeline.k',
  'pipeline.m',
  'pipeline.samples',
  'pipeline.repairBudget',
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

/**
 * Finds the server binary: the configured path first (a leading `~` is the
 * home directory), then `drift-lsp` on PATH. Returns undefined when neither
 * exists; `configured` set but missing is also undefined (the caller says so).
 */
export function findServer(configured: string, envPath: string | undefined, home: string): string | undefined {
  const c = configured.trim();
  if (c !== '') {
    const p = c === '~' ? home : c.startsWith('~/') ? path.join(home, c.slice(2)) : c;
    return isExecutable(p) ? p : undefined;
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, SERVER_NAME);
    if (isExecutable(p)) {
      return p;
    }
  }
  return undefined;
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
