/**
 * The one place where the sandbox's WebAssembly is obtained, the only part of code mode that differs per
 * runtime. On Node, Deno and Bun the variant package reads its `.wasm` file beside itself. Cloudflare Workers
 * forbid compiling WebAssembly from bytes at run time: there the Worker imports the `.wasm` as a module
 * (wrangler's CompiledWasm rule, bundled at deploy), and it is handed in here, as quickjs-emscripten
 * documents for Workers (`newVariant(variant, { wasmModule })`).
 */
import type { CustomizeVariantOptions, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The compiled QuickJS module (a `WebAssembly.Module`), or a function that loads it: handed in on Workers;
 * absent elsewhere, where the variant loads its own file.
 */
export type QuickJsWasm = NonNullable<CustomizeVariantOptions['wasmModule']>;

export async function newQuickJs(wasm: QuickJsWasm | undefined): Promise<QuickJSWASMModule> {
  const [{ newQuickJSWASMModuleFromVariant, newVariant }, variant] = await Promise.all([
    import('quickjs-emscripten-core'),
    import('@jitl/quickjs-wasmfile-release-sync'),
  ]);
  // The package is ESM for Node's import and CommonJS for its types: at run time the variant is `default`.
  const base = variant.default as unknown as QuickJSSyncVariant;
  return newQuickJSWASMModuleFromVariant(wasm ? newVariant(base, { wasmModule: wasm }) : base);
}
