/**
 * Certificates for TLS tests, made with openssl in a temporary folder: a CA, a server certificate for 127.0.0.1
 * signed by it, a client certificate signed by it (its key also in an encrypted copy), and a second CA that signs
 * neither.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /** File paths. */
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** The client key encrypted with `passphrase`. */
  clientKeyEncrypted: string;
  passphrase: string;
  otherCaCert: string;
  /** PEM text, for node:https server options. */
  pem: (file: string) => string;
  cleanup: () => void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function makeCa(dir: string, name: string): void {
  openssl(
    dir,
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`].concat([
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    ]),
  );
}

function signedBy(dir: string, ca: string, name: string, extensions: string): void {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    dir,
    ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'].concat([
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ]),
  );
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'otm-tls-'));
  makeCa(dir, 'test-ca');
  makeCa(dir, 'other-ca');
  signedBy(dir, 'test-ca', 'server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  signedBy(dir, 'test-ca', 'client', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'pass phrase 42';
  openssl(dir, [
    'pkey',
    '-in',
    'client.key',
    '-aes256',
    '-passout',
    `pass:${passphrase}`,
    '-out',
    'client-encrypted.key',
  ]);
  const file = (name: string) => join(dir, name);
  return {
    dir,
    caCert: file('test-ca.crt'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    clientCert: file('client.crt'),
    clientKey: file('client.key'),
    clientKeyEncrypted: file('client-encrypted.key'),
    passphrase,
    otherCaCert: file('other-ca.crt'),
    pem: (path) => readFileSync(path, 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
