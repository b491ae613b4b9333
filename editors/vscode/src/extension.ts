// The DRIFT extension for VS Code: starts `drift-lsp serve` for Lean 4 files
// next to the official Lean 4 extension, and adds commands for its actions,
// library search, the API key, and a status-bar item fed by server progress.
import { execFile, spawn } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CodeAction as LspCodeAction,
  CodeActionParams,
  CodeActionRequest,
  CodeActionResolveRequest,
  CodeActionTriggerKind,
  Command as LspCommand,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  Location as LspLocation,
  ServerOptions,
  State,
  SymbolInformation,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  WorkspaceSymbol,
  WorkspaceSymbolRequest,
  WorkspaceSymbolResolveRequest,
} from 'vscode-languageclient/node';
import {
  DoctorReport,
  INSTALL_COMMAND,
  ProgressState,
  ServerState,
  apiKeyEnvName,
  blueprintLabelAt,
  bareTitle,
  explicitSection,
  findServer,
  missingModelFix,
  pickAction,
  serverEnv,
  statusLabel,
  statusMarkdown,
  statusText,
  versionMismatch,
} from './util';
import { registerMcpServer } from './mcp';

const SECRET_KEY = 'drift.apiKey';
const LEAN_SELECTOR = [
  { scheme: 'file', language: 'lean4' },
  { scheme: 'untitled', language: 'lean4' },
];

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let statusItem: vscode.StatusBarItem;
let serverState: ServerState = 'starting';
const active = new Map<string | number, ProgressState>();
let starting: Promise<void> | undefined;
// True while this window writes the key, so that its own change event does not restart twice.
let writingSecret = false;

function refreshStatus(): void {
  const all = [...active.values()];
  statusItem.text = statusText(all, serverState);
  statusItem.accessibilityInformation = { label: statusLabel(all, serverState) };
  statusItem.tooltip = serverState === 'missing'
    ? `drift-lsp was not found. Install it with: ${INSTALL_COMMAND}`
    : 'DRIFT language server — click to show the log';
  statusItem.show();
}

/** Activates the extension: commands and status bar at once, the server in the background. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('DRIFT', { log: true });
  statusItem = vscode.window.createStatusBarItem('drift.status', vscode.StatusBarAlignment.Left, 0);
  statusItem.name = 'DRIFT';
  statusItem.command = 'drift-client.showLog';
  context.subscriptions.push(output, statusItem);
  refreshStatus();

  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (err) {
          output.error(`${id}: ${errorMessage(err)}`);
          void vscode.window.showErrorMessage(`DRIFT: ${errorMessage(err)}`);
          return undefined;
        }
      }),
    );
  reg('drift-client.formalize', () => runAction(['Formalize'], 'formalize'));
  reg('drift-client.findPremises', () => runAction(['Find premises'], 'find premises for'));
  reg('drift-client.searchLibrary', (query?: unknown) => searchLibrary(typeof query === 'string' ? query : ''));
  reg('drift-client.reindex', () => reindex(context));
  reg('drift-client.formalizeBlueprint', (label?: unknown) => formalizeBlueprint(typeof label === 'string' ? label : undefined));
  reg('drift-client.formalizeBlueprintNode', () => {
    const ed = vscode.window.activeTextEditor;
    const label = ed ? blueprintLabelAt(ed.document.getText(), ed.document.offsetAt(ed.selection.active)) : undefined;
    if (label === undefined) {
      void vscode.window.showWarningMessage('DRIFT: the cursor is not in a blueprint node (a definition, lemma, theorem, proposition or corollary with a \\label).');
      return undefined;
    }
    return formalizeBlueprint(label);
  });
  // "Formalize this node" on a node of a blueprint's .tex file; the server never sees .tex files.
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/*.tex' }, {
      provideCodeActions(doc, range) {
        const label = blueprintLabelAt(doc.getText(), doc.offsetAt(range.start));
        if (label === undefined) {
          return [];
        }
        const a = new vscode.CodeAction('Formalize this node', vscode.CodeActionKind.RefactorRewrite);
        a.command = { title: 'Formalize this node', command: 'drift-client.formalizeBlueprint', arguments: [label] };
        return [a];
      },
    }),
  );
  reg('drift-client.setApiKey', () => setApiKey(context));
  reg('drift-client.showLog', () => output.show(true));
  reg('drift-client.showStatus', () => showStatus(context));

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('drift.serverPath') || e.affectsConfiguration('drift.llm.apiKeyEnv')) {
        void restart(context);
      }
    }),
    // A key changed from another window restarts this server too.
    context.secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY && !writingSecret) {
        void restart(context);
      }
    }),
    { dispose: () => void client?.stop() },
  );
  registerMcpServer(context, async () => mcpEnv(context), output);
  await start(context);
}

/** The extra environment of `drift-lsp mcp`: the API key from secret storage, in its variable. */
async function mcpEnv(context: vscode.ExtensionContext): Promise<Record<string, string>> {
  const keyEnv = apiKeyEnvName((driftSection().llm as Record<string, unknown> | undefined)?.apiKeyEnv, process.env);
  const apiKey = await context.secrets.get(SECRET_KEY);
  return apiKey ? { [keyEnv]: apiKey } : {};
}

/** Stops the server when the extension is deactivated. */
export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    await c.stop();
  }
}

/** The `drift` section with only the settings the user set (user, workspace or folder). */
function driftSection(): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration('drift');
  return explicitSection((key) => {
    const i = cfg.inspect(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  });
}

function start(context: vscode.ExtensionContext): Promise<void> {
  if (starting === undefined) {
    starting = doStart(context).finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function doStart(context: vscode.ExtensionContext): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('drift');
  const section = driftSection();
  const keyEnv = apiKeyEnvName((section.llm as Record<string, unknown> | undefined)?.apiKeyEnv, process.env);
  const configured = cfg.get<string>('serverPath') ?? '';
  const bin = findServer(configured, process.env.PATH, os.homedir(), context.extensionPath);
  if (bin === undefined) {
    serverState = 'missing';
    refreshStatus();
    const where = configured.trim() !== ''
      ? `drift.serverPath (${configured}) is not an executable file`
      : 'drift-lsp is not on PATH and drift.serverPath is empty';
    output.error(`server not found: ${where}`);
    const copy = 'Copy install command';
    const open = 'Open settings';
    void vscode.window
      .showErrorMessage(`DRIFT: ${where}. Install the server with: ${INSTALL_COMMAND}`, copy, open)
      .then((choice) => {
        if (choice === copy) {
          void vscode.env.clipboard.writeText(INSTALL_COMMAND);
        } else if (choice === open) {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'drift.serverPath');
        }
      });
    return;
  }

  const apiKey = await context.secrets.get(SECRET_KEY);
  const env = serverEnv(process.env, keyEnv, apiKey);
  const serverOptions: ServerOptions = {
    command: bin,
    args: ['serve'],
    transport: TransportKind.stdio,
    options: { env },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LEAN_SELECTOR,
    outputChannel: output,
    // Only explicitly set settings go to the server, so that its defaults and
    // environment fallbacks hold for the rest.
    initializationOptions: () => driftSection(),
    synchronize: { configurationSection: 'drift' },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const res = await next(params, token);
          if (!Array.isArray(res)) {
            return res;
          }
          return params.items.map((item, i) => (item.section === 'drift' ? driftSection() : res[i]));
        },
      },
    },
  };
  output.info(`starting ${bin} serve${apiKey ? ` (API key from secret storage in $${keyEnv})` : ''}`);
  const c = new LanguageClient('drift', 'DRIFT', serverOptions, clientOptions);
  // Server-created progress drives both a progress notification and the
  // status-bar item. Registered as a feature, this handler is installed right
  // after (and so replaces) the client's default one, before any request.
  c.registerFeature({
    fillClientCapabilities: () => {},
    initialize: () => {
      c.onRequest(WorkDoneProgressCreateRequest.type, (params) => trackProgress(c, params.token));
    },
    getState: () => ({ kind: 'static' }),
    clear: () => {},
  });
  client = c;
  serverState = 'starting';
  refreshStatus();
  c.onDidChangeState((e) => {
    if (client !== c) {
      return;
    }
    if (e.newState === State.Stopped) {
      serverState = 'stopped';
      active.clear();
    } else if (e.newState === State.Running) {
      serverState = 'ready';
    }
    refreshStatus();
  });
  try {
    await c.start();
  } catch (err) {
    output.error(`drift-lsp failed to start: ${String(err)}`);
    void vscode.window.showErrorMessage(`DRIFT: the server failed to start (${String(err)}). See "DRIFT: Show log".`);
    serverState = 'stopped';
    refreshStatus();
    return;
  }
  serverState = 'ready';
  refreshStatus();
  const mismatch = versionMismatch(c.initializeResult?.serverInfo?.version, String(context.extension.packageJSON.version));
  if (mismatch !== undefined) {
    output.warn(mismatch);
    void vscode.window.showWarningMessage(`DRIFT: ${mismatch}`);
  }
  void offerModel(context, bin, env);
}

/** The folder doctor and setup run in: the first workspace folder, else the active file's. */
function workingDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme === 'file') {
    return folder.fsPath;
  }
  const doc = vscode.window.activeTextEditor?.document.uri;
  return doc?.scheme === 'file' ? path.dirname(doc.fsPath) : os.homedir();
}

/**
 * Runs `drift-lsp doctor --json` with the drift settings the server gets
 * (the CLI, not a request to the server: it answers when the server is
 * missing or failed to start, which is when the status matters most). Exit
 * status 1 only means something is missing.
 */
function doctor(bin: string, env: NodeJS.ProcessEnv): Promise<DoctorReport> {
  return new Promise((resolve, reject) => {
    execFile(bin, ['doctor', '--json', '--settings', JSON.stringify(driftSection())], { cwd: workingDir(), env, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err !== null && (err as { code?: unknown }).code !== 1) {
        reject(new Error(`drift-lsp doctor failed: ${stderr.trim() || err.message}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as DoctorReport);
      } catch (e) {
        reject(new Error(`drift-lsp doctor printed no report: ${String(e)}`));
      }
    });
  });
}

/** DRIFT: Show status — what drift-lsp finds, as `drift-lsp doctor` prints it. */
async function showStatus(context: vscode.ExtensionContext): Promise<void> {
  const bin = findServer(vscode.workspace.getConfiguration('drift').get<string>('serverPath') ?? '', process.env.PATH, os.homedir(), context.extensionPath);
  if (bin === undefined) {
    void vscode.window.showErrorMessage(`DRIFT: drift-lsp was not found. Install it with: ${INSTALL_COMMAND}`);
    return;
  }
  const report = await doctor(bin, await serverEnvironment(context));
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: statusMarkdown(report) });
  await vscode.window.showTextDocument(doc, { preview: true });
}

/** The server's environment: the editor's plus the stored API key. */
async function serverEnvironment(context: vscode.ExtensionContext): Promise<NodeJS.ProcessEnv> {
  const keyEnv = apiKeyEnvName((driftSection().llm as Record<string, unknown> | undefined)?.apiKeyEnv, process.env);
  return serverEnv(process.env, keyEnv, await context.secrets.get(SECRET_KEY));
}

const SKIP_MODEL_OFFER = 'drift.skipModelOffer';

/**
 * Offers to install the bundled local model when doctor says it is missing
 * (no endpoint configured and nothing installed), rather than letting the
 * first Formalize fail; the install shows its progress and restarts the
 * server when done.
 */
async function offerModel(context: vscode.ExtensionContext, bin: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (context.globalState.get<boolean>(SKIP_MODEL_OFFER)) {
    return;
  }
  let fix: string | undefined;
  try {
    fix = missingModelFix(await doctor(bin, env));
  } catch (err) {
    output.warn(String(err));
    return;
  }
  if (fix === undefined) {
    return;
  }
  const install = 'Install';
  const never = "Don't ask again";
  const choice = await vscode.window.showInformationMessage(
    'DRIFT: no language model is configured. Install the local model (1.1 GB)?', install, 'Not now', never);
  if (choice === never) {
    await context.globalState.update(SKIP_MODEL_OFFER, true);
  }
  if (choice !== install) {
    return;
  }
  const ok = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'DRIFT: installing the local model', cancellable: true },
    (progress, token) => new Promise<boolean>((resolve) => {
      output.info(`running ${bin} setup model`);
      const child = spawn(bin, ['setup', 'model'], { cwd: workingDir(), env });
      token.onCancellationRequested(() => child.kill());
      let partial = '';
      child.stderr.on('data', (b: Buffer) => {
        const lines = (partial + b.toString()).split(/\r?\n|\r/);
        partial = lines.pop() ?? '';
        for (const line of lines.filter((l) => l.trim() !== '')) {
          output.info(line);
          progress.report({ message: line.replace(/^drift-lsp setup: /, '') });
        }
      });
      child.on('error', (err) => {
        output.error(`setup model: ${String(err)}`);
        resolve(false);
      });
      child.on('close', (code) => resolve(code === 0));
    }),
  );
  if (ok) {
    void vscode.window.showInformationMessage('DRIFT: the local model is installed; restarting the server.');
    await restart(context);
  } else {
    void vscode.window.showErrorMessage(`DRIFT: installing the local model failed; see "DRIFT: Show log", or run in a terminal: ${fix}`);
  }
}

function trackProgress(c: LanguageClient, token: string | number): void {
  let finish: (() => void) | undefined;
  const sub = c.onProgress(WorkDoneProgress.type, token, (v) => {
    if (v.kind === 'begin') {
      active.set(token, { title: v.title, message: v.message, percentage: v.percentage });
      const cancellable = v.cancellable === true;
      void vscode.window.withProgress(
        {
          location: cancellable ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
          title: `DRIFT: ${bareTitle(v.title)}`,
          cancellable,
        },
        (progress, ct) => {
          ct.onCancellationRequested(() => {
            void c.sendNotification(WorkDoneProgressCancelNotification.type, { token });
          });
          let last = v.percentage ?? 0;
          const report = (msg?: string, pct?: number) => {
            const inc = pct !== undefined ? Math.max(0, pct - last) : undefined;
            if (pct !== undefined) {
              last = pct;
            }
            progress.report({ message: msg, increment: inc });
          };
          report(v.message, v.percentage);
          reporters.set(token, report);
          return new Promise<void>((resolve) => {
            finish = resolve;
          });
        },
      );
    } else if (v.kind === 'report') {
      const cur = active.get(token);
      if (cur !== undefined) {
        cur.message = v.message ?? cur.message;
        cur.percentage = v.percentage ?? cur.percentage;
        // Move to the end so that the newest activity shows.
        active.delete(token);
        active.set(token, cur);
      }
      reporters.get(token)?.(v.message, v.percentage);
    } else {
      if (v.message) {
        output.info(`${active.get(token)?.title ?? 'progress'}: ${v.message}`);
      }
      active.delete(token);
      reporters.delete(token);
      finish?.();
      sub.dispose();
    }
    refreshStatus();
  });
}

const reporters = new Map<string | number, (msg?: string, pct?: number) => void>();

let restarts: Promise<void> = Promise.resolve();

/** Stops the server and starts it again; restarts run one after another. */
function restart(context: vscode.ExtensionContext): Promise<void> {
  restarts = restarts.then(() => doRestart(context));
  return restarts;
}

async function doRestart(context: vscode.ExtensionContext): Promise<void> {
  const c = client;
  client = undefined;
  active.clear();
  if (c !== undefined) {
    try {
      await c.stop();
    } catch (err) {
      output.warn(`stopping drift-lsp: ${String(err)}`);
    }
  }
  await start(context);
}

async function runningClient(): Promise<LanguageClient | undefined> {
  if (starting !== undefined) {
    await starting;
  }
  if (client === undefined || !client.isRunning()) {
    void vscode.window.showErrorMessage('DRIFT: the drift-lsp server is not running. See "DRIFT: Show log".');
    return undefined;
  }
  return client;
}

/**
 * Runs one of the server's code actions (chosen by title) for the comment or
 * selection under the cursor, as the quick-fix menu would.
 */
async function runAction(prefixes: string[], verb: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'lean4') {
    void vscode.window.showInformationMessage('DRIFT: open a Lean 4 file first.');
    return;
  }
  const c = await runningClient();
  if (c === undefined) {
    return;
  }
  const doc = editor.document;
  const params: CodeActionParams = {
    textDocument: { uri: doc.uri.toString() },
    range: c.code2ProtocolConverter.asRange(editor.selection),
    context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Invoked },
  };
  const result = (await c.sendRequest(CodeActionRequest.type, params)) ?? [];
  let action = pickAction(result as (LspCodeAction | LspCommand)[], prefixes);
  if (action === undefined) {
    void vscode.window.showInformationMessage(
      `DRIFT: nothing to ${verb} here — put the cursor on a docstring or comment, or select the statement.`,
    );
    return;
  }
  if (LspCommand.is(action)) {
    await c.sendRequest(ExecuteCommandRequest.type, { command: action.command, arguments: action.arguments });
    return;
  }
  const resolveProvider = c.initializeResult?.capabilities.codeActionProvider;
  if (action.edit === undefined && action.command === undefined && typeof resolveProvider === 'object' && resolveProvider.resolveProvider) {
    action = await c.sendRequest(CodeActionResolveRequest.type, action);
  }
  if (action.edit !== undefined) {
    const edit = await c.protocol2CodeConverter.asWorkspaceEdit(action.edit);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage('DRIFT: the edit could not be applied.');
      return;
    }
  }
  if (action.command !== undefined) {
    await c.sendRequest(ExecuteCommandRequest.type, { command: action.command.command, arguments: action.command.arguments });
  }
}

interface SymbolItem extends vscode.QuickPickItem {
  /** Undefined for the "nothing found" and "indexing" placeholder rows. */
  symbol?: SymbolInformation | WorkspaceSymbol;
}

/** A quick pick over the server's workspace/symbol search; opens the chosen declaration. */
async function searchLibrary(initial: string): Promise<void> {
  const c = await runningClient();
  if (c === undefined) {
    return;
  }
  const qp = vscode.window.createQuickPick<SymbolItem>();
  qp.title = 'DRIFT: Search library';
  qp.placeholder = 'Describe a definition or theorem, or type part of its name';
  // The server ranks the hits; matching the client's filter on the
  // description (module and docstring summary) would re-sort them.
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let cts: vscode.CancellationTokenSource | undefined;
  let timer: NodeJS.Timeout | undefined;
  const search = (query: string) => {
    cts?.cancel();
    if (query.trim() === '') {
      qp.items = [];
      return;
    }
    const mine = new vscode.CancellationTokenSource();
    cts = mine;
    qp.busy = true;
    c.sendRequest(WorkspaceSymbolRequest.type, { query }, mine.token).then(
      (res) => {
        if (cts !== mine) {
          return;
        }
        qp.busy = false;
        const items: SymbolItem[] = (res ?? []).map((s) => ({
          label: s.name,
          description: s.containerName,
          detail: describeLocation(s.location),
          alwaysShow: true,
          symbol: s,
        }));
        qp.items = items.length > 0 ? items : [{ label: `No declarations found for "${query}"`, alwaysShow: true }];
      },
      (err) => {
        if (cts === mine) {
          // "indexing, N%" while the index loads: say so in the list.
          qp.busy = false;
          qp.items = [{ label: `$(info) ${errorMessage(err).replace(/^drift:\s*/, '')}`, detail: 'Type again in a moment.', alwaysShow: true }];
          output.warn(`workspace/symbol: ${errorMessage(err)}`);
        }
      },
    );
  };
  qp.onDidChangeValue((v) => {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => search(v), 150);
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    qp.hide();
    if (item?.symbol !== undefined) {
      await openSymbol(c, item.symbol);
    }
  });
  qp.onDidHide(() => {
    cts?.cancel();
    qp.dispose();
  });
  qp.value = initial;
  qp.show();
  if (initial !== '') {
    search(initial);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function describeLocation(loc: LspLocation | { uri: string }): string {
  const uri = vscode.Uri.parse(loc.uri);
  const rel = vscode.workspace.asRelativePath(uri, false);
  return 'range' in loc ? `${rel}:${loc.range.start.line + 1}` : rel;
}

async function openSymbol(c: LanguageClient, sym: SymbolInformation | WorkspaceSymbol): Promise<void> {
  let loc: LspLocation | { uri: string } = sym.location;
  if (!('range' in loc)) {
    const ws = c.initializeResult?.capabilities.workspaceSymbolProvider;
    if (typeof ws === 'object' && ws.resolveProvider) {
      const resolved = await c.sendRequest(WorkspaceSymbolResolveRequest.type, sym as WorkspaceSymbol);
      loc = resolved.location;
    }
  }
  const uri = vscode.Uri.parse(loc.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  const range = 'range' in loc ? c.protocol2CodeConverter.asRange(loc.range) : new vscode.Range(0, 0, 0, 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(range.start, range.start), preview: true });
}

/** Runs the server's drift.blueprint (the whole blueprint, or the node labelled label); the server shows progress with a cancel button. */
async function formalizeBlueprint(label: string | undefined): Promise<void> {
  const c = await runningClient();
  if (c === undefined) {
    void vscode.window.showWarningMessage('DRIFT: the server is not running; open a Lean file of the project first.');
    return;
  }
  await c.sendRequest(ExecuteCommandRequest.type, { command: 'drift.blueprint', arguments: label === undefined ? [] : [{ label }] });
}

/** Asks the server to rebuild its index; restarts it when it has no such command. */
async function reindex(context: vscode.ExtensionContext): Promise<void> {
  const c = await runningClient();
  if (c === undefined) {
    await restart(context);
    return;
  }
  const cmds = c.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  const cmd = cmds.find((x) => /reindex/i.test(x));
  if (cmd !== undefined) {
    await c.sendRequest(ExecuteCommandRequest.type, { command: cmd, arguments: [] });
    return;
  }
  output.info('server has no reindex command; restarting it to rebuild the index');
  await restart(context);
}

/** Stores the API key in SecretStorage (empty input removes it); the server restarts with it. */
async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
  const envName = apiKeyEnvName((driftSection().llm as Record<string, unknown> | undefined)?.apiKeyEnv, process.env);
  const key = await vscode.window.showInputBox({
    title: 'DRIFT: Set API key',
    prompt: `API key for the model endpoint (kept in VS Code's secret storage, given to drift-lsp as $${envName}). Leave empty to remove it.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) {
    return;
  }
  writingSecret = true;
  try {
    if (key.trim() === '') {
      await context.secrets.delete(SECRET_KEY);
    } else {
      await context.secrets.store(SECRET_KEY, key.trim());
    }
  } finally {
    writingSecret = false;
  }
  void vscode.window.showInformationMessage(
    key.trim() === '' ? 'DRIFT: API key removed; restarting the server.' : 'DRIFT: API key stored; restarting the server with it.',
  );
  await restart(context);
}
