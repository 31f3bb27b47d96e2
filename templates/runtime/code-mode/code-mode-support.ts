/**
 * Code mode, as the project's entry hands it to the server (server/code-mode-seam.ts): only a project
 * generated with `--tool-mode code` has this folder and calls this. The entry imports this module at start, so
 * it stays light: the tools' handlers, the sandbox and the type stripper load on the first call of `search` or
 * `execute`.
 */
import type { CodeModeSupport } from '../server/code-mode-seam.js';
import { readCodeSettings } from './code-settings.js';
import type { QuickJsWasm } from './quickjs-wasm.js';

export interface CodeModeOptions {
  /** QuickJS compiled, where the runtime cannot compile it itself (Workers: the `.wasm` imported as a module). */
  wasm?: QuickJsWasm;
}

export function codeModeSupport(options: CodeModeOptions = {}): CodeModeSupport {
  return {
    readSettings: readCodeSettings,
    callTool: async (name, args, call) => {
      const [{ handleCodeTool }, { programConfirmation }] = await Promise.all([
        import('./code-mode.js'),
        import('./code-confirm.js'),
      ]);
      const { confirm, ...rest } = call;
      const confirmation = programConfirmation(
        confirm.gate,
        confirm.policy,
        confirm.ctx,
        confirm.server,
        confirm.confirmedByArgument,
      );
      return handleCodeTool(name, args, {
        ...rest,
        ...(options.wasm ? { wasm: options.wasm } : {}),
        ...(confirmation ? { confirmation } : {}),
      });
    },
  };
}
