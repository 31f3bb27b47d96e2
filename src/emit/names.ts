/** Names derived from the API for the generated package: npm name, env var names, semver version. */

/** Lower-case ASCII words: accents dropped, any other character separates (`Ünïcode API!` → `unicode`, `api`). */
export function slugWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** `petstore_auth` / `bearerAuth` → `PETSTORE_AUTH` / `BEARER_AUTH`. */
export function envName(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase() || 'API'
  );
}

/** `PETSTORE` + `TOKEN` → `PETSTORE_TOKEN`; `API_KEY` + `API_KEY` → `API_KEY` (no stutter). */
export function envVar(prefix: string, suffix: string): string {
  return prefix === suffix || prefix.endsWith(`_${suffix}`) ? prefix : `${prefix}_${suffix}`;
}

/** npm needs semver; API versions are often `v1`, `2022-11-28` or `1.0`. */
export function toSemver(version: string): string {
  const full = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (full) return `${Number(full[1])}.${Number(full[2])}.${Number(full[3])}${full[4] ?? ''}`;
  const partial = /^v?(\d+)(?:\.(\d+))?$/.exec(version.trim());
  if (partial) return `${Number(partial[1])}.${Number(partial[2] ?? 0)}.0`;
  return '0.1.0';
}
