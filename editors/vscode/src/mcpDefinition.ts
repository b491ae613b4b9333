// What the extension tells VS Code's MCP support (VS Code 1.101+) about
// `drift-lsp mcp`: pure helpers, tested with `npm test`.

/** The provider id; package.json contributes it under `mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'drift.mcpServers';

/** The server's label in VS Code's MCP server list. */
export const MCP_LABEL = 'DRIFT (drift-lsp mcp)';

/** The arguments that start `drift-lsp mcp` on a workspace folder (else the server's current directory). */
export function mcpArgs(folder: string | undefined): string[] {
  return folder === undefined || folder === '' ? ['mcp'] : ['mcp', '--root', folder];
}

/** The part of `vscode.lm` the extension uses, present from VS Code 1.101. */
export interface McpLanguageModels {
  registerMcpServerDefinitionProvider(id: string, provider: unknown): { dispose(): unknown };
}

/** Reports whether the running VS Code's `vscode.lm` can register MCP servers. */
export function hasMcpApi(lm: unknown): lm is McpLanguageModels {
  return typeof lm === 'object' && lm !== null
    && typeof (lm as Record<string, unknown>).registerMcpServerDefinitionProvider === 'function';
}
