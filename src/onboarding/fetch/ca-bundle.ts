import { readFile, writeFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { ErrorCode, operationalError } from '../../core/errors.js';

/**
 * Node adds the CAs of NODE_EXTRA_CA_CERTS to its own roots; git (libcurl) reads neither, it trusts the system store
 * or one `http.sslCAInfo` file. So, when extra CAs are configured, git gets the same trust as Node: a bundle of Node's
 * roots plus the extra file, written in the fetch's folder. Without extra CAs git keeps the system's store.
 */
export async function writeCaBundle(extraCaFile: string, target: string): Promise<void> {
  let extra: string;
  try {
    extra = await readFile(extraCaFile, 'utf8');
  } catch (error) {
    throw operationalError(ErrorCode.RepositoryTlsUntrusted, `NODE_EXTRA_CA_CERTS names ${extraCaFile}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): fix the path`, {
      cause: error,
    });
  }
  if (!extra.includes('-----BEGIN CERTIFICATE-----')) {
    throw operationalError(ErrorCode.RepositoryTlsUntrusted, `NODE_EXTRA_CA_CERTS names ${extraCaFile}, which holds no PEM certificate`);
  }
  await writeFile(target, `${[...rootCertificates, extra.trim()].join('\n')}\n`, { mode: 0o600 });
}
