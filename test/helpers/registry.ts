/** A tool registry over a test's catalog, read as the server reads it: from catalog.json's bytes. */
import { Buffer } from 'node:buffer';
import { catalogFileText } from '../../src/emit/catalog.js';
import type { Catalog } from '../../templates/runtime/contract/catalog.js';
import { parseCatalog } from '../../templates/runtime/server/tool-table.js';
import { ToolRegistry } from '../../templates/runtime/server/tool-registry.js';

export function registryOf(catalog: Catalog): ToolRegistry {
  return new ToolRegistry(parseCatalog(Buffer.from(catalogFileText(catalog), 'latin1')));
}
