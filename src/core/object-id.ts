/**
 * Object ids: what one looks like and the all-zero id git uses for "no object" (a ref that
 * does not exist yet, in `update-ref` and reflogs). Only sha1 repositories are supported
 * (../git/repo.ts refuses others); SHA-256 support starts here: a 64-digit form, chosen by the
 * repository's object format.
 */

/** Hex digits in a sha1 object id. */
export const OID_HEX_LENGTH = 40;

/** The id git writes for "no object". */
export const ZERO_OID = '0'.repeat(OID_HEX_LENGTH);

const OID = /^[0-9a-f]{40}$/;

/** A full object id in git's spelling (lower-case hex), as git prints and stores them. */
export function isObjectId(v: unknown): v is string {
  return typeof v === 'string' && OID.test(v);
}
