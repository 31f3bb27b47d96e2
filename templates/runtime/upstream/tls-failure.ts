/**
 * What a failed TLS handshake with the API means, in words a user can act on: the API's certificate did not
 * verify (a private CA: API_TLS_CA_FILE), or the API ended the handshake (it wants a client certificate:
 * API_TLS_CERT_FILE and API_TLS_PRIVATE_FILE). Node reports both as error codes, on the error itself (node:https) or
 * on its cause (fetch).
 */

/** OpenSSL's verification results as Node names them, and Node's own host name check. */
const VERIFICATION_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** `tlsv13 alert certificate required`, `sslv3 alert handshake failure`, … in OpenSSL's message. */
const ALERT = /(?:tlsv1[0-9]?|sslv3) alert [a-z ]+/;

/** A sentence about the TLS failure in `error`'s cause chain, or undefined when it is not one. */
export function tlsFailure(error: unknown): string | undefined {
  for (let current = error, depth = 0; isRecord(current) && depth < 8; current = current['cause'], depth++) {
    const code = typeof current['code'] === 'string' ? current['code'] : '';
    const message = typeof current['message'] === 'string' ? current['message'] : '';
    if (VERIFICATION_CODES.has(code))
      return `the API's certificate could not be verified (${code}: ${message}); if a private CA signs it, set API_TLS_CA_FILE to that CA's PEM file`;
    const alert = ALERT.exec(message)?.[0];
    if (alert?.endsWith('certificate required'))
      return `the API asks for a client certificate (${alert}): set API_TLS_CERT_FILE and API_TLS_PRIVATE_FILE`;
    if (alert)
      return `the API ended the TLS handshake (${alert}); if it asks for a client certificate, set API_TLS_CERT_FILE and API_TLS_PRIVATE_FILE to one it accepts`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
