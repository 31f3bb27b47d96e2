/** Generation-time checks of the --caller-credentials mapping against the spec's security schemes. */
import type { CallerCredentialsConfig } from '../../templates/runtime/contract/catalog.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ApiModel } from '../ir/types.js';

/** A mapping entry for a scheme the spec does not define is dropped; say so rather than ignore it silently. */
export function warnUnknownCallerSchemes(api: ApiModel, config: CallerCredentialsConfig, diags: Diagnostics): void {
  const known = new Set(api.securitySchemes.map((s) => s.name));
  const pointer = api.dialect === 'swagger-2.0' ? '#/securityDefinitions' : '#/components/securitySchemes';
  for (const scheme of Object.keys(config.map ?? {})) {
    if (!known.has(scheme))
      diags.warn(
        'OTM_SECURITY_UNKNOWN',
        pointer,
        `--caller-credentials names unknown security scheme ${scheme}; the entry is ignored`,
      );
  }
}
