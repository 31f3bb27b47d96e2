/**
 * The one place where the sandbox's WebAssembly is obtained and instantiated. The module is compiled once
 * (per thread); every program gets an instance of its own, with a `WebAssembly.Memory` of its own whose
 * maximum is the program's memory cap, so the WebAssembly engine itself refuses to grow a program's heap past
 * it, and no program can reach, fill or corrupt another's heap. (QuickJS's own allocation limit is kept as
 * well, for its clearer accounting, but it is not what holds the cap.)
 *
 * On Node, Deno and Bun the `.wasm` file is read from the variant package. Cloudflare Workers forbid
 * compiling WebAssembly from bytes at run time: there the Worker imports the `.wasm` as a module (wrangler's
 * CompiledWasm rule, bundled at deploy), and it is handed in (`newVariant(variant, { wasmModule })`, as
 * quickjs-emscripten documents for Workers).
 */
import type { CustomizeVariantOptions, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The compiled QuickJS module (a `WebAssembly.Module`), or a function that loads it: handed in on Workers;
 * absent elsewhere, where it is compiled from the variant's file.
 */
export type QuickJsWasm = NonNullable<CustomizeVariantOptions['wasmModule']>;

/** The part of the WebAssembly API used here (the project's `lib` declares none of it). */
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<QuickJsWasm>;
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
};
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

const PAGE_BYTES = 64 * 1024;
/** The memory the QuickJS build declares as its minimum (emscripten's INITIAL_MEMORY, 16 MiB). */
export const QUICKJS_MIN_MEMORY_BYTES = 256 * PAGE_BYTES;

let compiled: Promise<QuickJsWasm> | undefined;

/** The variant's `.wasm`, compiled once per thread (about 25 ms); instances then take a few milliseconds. */
export function compileQuickJs(): Promise<QuickJsWasm> {
  compiled ??= readQuickJsFile().then((bytes) => WebAssembly.compile(bytes));
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

async function readQuickJsFile(): Promise<Uint8Array> {
  const [{ createRequire }, { readFile }] = await Promise.all([import('node:module'), import('node:fs/promises')]);
  // The package's documented `wasm` export; resolved like any import of this file.
  return readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
}

/**
 * A QuickJS instance of its own, in a memory of its own that cannot grow past `memoryBytes` (nor be smaller
 * than the build's minimum, 16 MiB). Returns the memory too, so that its size can be read afterwards.
 */
export interface QuickJsInstance {
  quickJs: QuickJSWASMModule;
  memory: WasmMemory;
}

export async function newQuickJsInstance(wasm: QuickJsWasm, memoryBytes: number): Promise<QuickJsInstance> {
  const [{ newQuickJSWASMModuleFromVariant, newVariant }, variant] = await Promise.all([
    import('quickjs-emscripten-core'),
    import('@jitl/quickjs-wasmfile-release-sync'),
  ]);
  const initial = QUICKJS_MIN_MEMORY_BYTES / PAGE_BYTES;
  const memory = new WebAssembly.Memory({
    initial,
    maximum: Math.max(initial, Math.floor(memoryBytes / PAGE_BYTES)),
  });
  // The package is ESM for Node's import and CommonJS for its types: at run time the variant is `default`.
  const base = variant.default as unknown as QuickJSSyncVariant;
  const quickJs = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmModule: wasm, wasmMemory: memory }));
  return { quickJs, memory };
}
