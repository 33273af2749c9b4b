/** Every id in a path is a UUID (version 7, time-ordered); anything else names nothing. */
export const RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A revision number in a path (`/revisions/<n>`): 1 and up, without sign or leading zeros. */
export const REVISION_NUMBER = /^[1-9]\d{0,8}$/;
