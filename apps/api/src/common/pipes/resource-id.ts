/**
 * Every id is a UUID (version 7, time-ordered) in the form the service gives it out: lower
 * case. Ids are opaque strings to a client, so any other string, the same UUID in capitals
 * included, names nothing (404).
 */
export const RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A revision number in a path (`/revisions/<n>`): 1 and up, without sign or leading zeros. */
export const REVISION_NUMBER = /^[1-9]\d{0,8}$/;
