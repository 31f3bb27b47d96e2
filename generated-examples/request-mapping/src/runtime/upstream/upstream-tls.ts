/**
 * Mutual TLS and private CAs for the upstream (API_TLS_CA_FILE, API_TLS_CERT_FILE, API_TLS_PRIVATE_FILE,
 * API_TLS_PASSPHRASE): the PEM files are read once, at start, and tried as a TLS context then, so a missing
 * file, a key that does not match its certificate or a wrong passphrase stops the start with the reason instead of
 * failing every call. Node only: the Node server's own client (node-http-client.ts) applies them; fetch has no
 * standard way to (see assertUpstreamTlsApplies in config.ts).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { UpstreamTls } from './http-client.js';
import { readEnv } from '../contract/environment.js';

export class UpstreamTlsError extends Error {
  override readonly name = 'UpstreamTlsError';
}

/** The TLS material the environment names, or undefined when it names none. */
export function loadUpstreamTls(env: NodeJS.ProcessEnv): UpstreamTls | undefined {
  const caFile = readEnv(env, 'API_TLS_CA_FILE');
  const certFile = readEnv(env, 'API_TLS_CERT_FILE');
  const privateFile = readEnv(env, 'API_TLS_PRIVATE_FILE');
  const passphrase = readEnv(env, 'API_TLS_PASSPHRASE');
  if (!caFile && !certFile && !privateFile) {
    if (passphrase) throw new UpstreamTlsError('API_TLS_PASSPHRASE is set without API_TLS_PRIVATE_FILE');
    return undefined;
  }
  if (Boolean(certFile) !== Boolean(privateFile))
    throw new UpstreamTlsError(
      `${certFile ? 'API_TLS_CERT_FILE' : 'API_TLS_PRIVATE_FILE'} is set without ${certFile ? 'API_TLS_PRIVATE_FILE' : 'API_TLS_CERT_FILE'}: a client certificate needs both`,
    );
  const tls: UpstreamTls = {
    // Added to the built-in CAs, not instead of them: a token endpoint or redirect on a public host stays trusted.
    ...(caFile ? { ca: [...rootCertificates, readPem('API_TLS_CA_FILE', caFile)] } : {}),
    ...(certFile && privateFile
      ? { cert: readPem('API_TLS_CERT_FILE', certFile), key: readPem('API_TLS_PRIVATE_FILE', privateFile) }
      : {}),
    ...(passphrase ? { passphrase } : {}),
  };
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new UpstreamTlsError(`the API_TLS_* files cannot be used: ${reasonOf(error)}`);
  }
  return tls;
}

function readPem(variable: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UpstreamTlsError(`${variable}: cannot read ${file} (${reasonOf(error)})`);
  }
  if (!text.includes('-----BEGIN ')) throw new UpstreamTlsError(`${variable}: ${file} is not a PEM file`);
  return text;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
