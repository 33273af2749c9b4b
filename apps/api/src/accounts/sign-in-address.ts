import { hash } from 'node:crypto';
import { clientAddressKey } from '../common/throttling/client-address';

/** How long an address the account signed in from keeps vouching for it (see AccountsService). */
export const SIGN_IN_ADDRESS_MEMORY_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * What is remembered of an address an account signed in from: a SHA-256 of its key (IPv6 by its
 * /64, as the failure counts see it) salted with the account id, so that the table lists no
 * address and one address is not recognisable across accounts. Undefined for an address the
 * server could not read: there is nothing to recognise it by.
 */
export function signInAddressDigest(
  accountId: string,
  address: string | undefined,
): string | undefined {
  const key = clientAddressKey(address);
  return key === 'unknown' ? undefined : hash('sha256', `${accountId}\n${key}`, 'hex');
}
