// Registers `drift-lsp mcp` with VS Code's MCP support (1.101+), so that the
// editor's agent gets the library, the name check and the checks with no
// set-up; on older versions the extension activates without it.
import * as os from 'os';
import * as vscode from 'vscode';
import { MCP_LABEL, MCP_PROVIDER_ID, hasMcpApi, mcpArgs } from './mcpDefinition';
import { findServer } from './util';

/** The constructor of VS Code 1.101's `vscode.McpStdioServerDefinition`. */
type StdioDefinition = new (label: string, command: string, args?: string[], env?: Record<string, string>) => unknown;

/**
 * Registers the provider of the `drift-lsp mcp` server definition when the
 * running VS Code has the API; `env` gives the server's extra environment
 * (the API key in secret storage). Returns whether it registered.
 */
export function registerMcpServer(context: vscode.ExtensionContext, env: () => Promise<Record<string, string>>, log: vscode.LogOutputChannel): boolean {
  const api = vscode as unknown as { lm?: unknown; McpStdioServerDefinition?: StdioDefinition };
  const Definition = api.McpStdioServerDefinition;
  if (!hasMcpApi(api.lm) || typeof Definition !== 'function') {
    log.info(`VS Code ${vscode.version} has no MCP server API (1.101 or later): drift-lsp mcp is not offered to agents`);
    return false;
  }
  const changed = new vscode.EventEmitter<void>();
  const provider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      const bin = findServer(vscode.workspace.getConfiguration('drift').get<string>('serverPath') ?? '', process.env.PATH, os.homedir());
      if (bin === undefined) {
        return [];
      }
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      return [new Definition(MCP_LABEL, bin, mcpArgs(folder), await env())];
    },
  };
  context.subscriptions.push(
    changed,
    api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('drift.serverPath') || e.affectsConfiguration('drift.llm.apiKeyEnv')) {
        changed.fire();
      }
    }),
    context.secrets.onDidChange(() => changed.fire()),
  );
  return true;
}
