// Every numeric limit of the contract in one place, so that the server, the browser app and the
// OpenAPI descriptions quote the same numbers.

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const TITLE_MIN_LENGTH = 1;
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 500;

/** Ids are opaque, but one longer than this cannot exist, so it is rejected before any lookup. */
export const ID_MAX_LENGTH = 100;

/** Larger positions are valid (they mean "at the end"); the server clamps them to the list. */
export const POSITION_MAX = Number.MAX_SAFE_INTEGER;

export const COLUMN_SIZE_MIN = 1;
export const COLUMN_SIZE_MAX = 12;
/** The sizes of all columns of one row add up to at most this. */
export const ROW_WIDTH = 12;

// How much one account may store (the contract's "Limits"): beyond them a write answers 409
// `/problems/limit-exceeded` with `limit`, or 413 for a content's data.
export const BLOCKS_PER_PROJECT_MAX = 500;
export const ROWS_PER_BLOCK_MAX = 500;
export const CONTENTS_PER_COLUMN_MAX = 1000;
export const PROJECTS_PER_ACCOUNT_MAX = 10_000;
/** Nodes one duplicate may create. */
export const DUPLICATE_NODES_MAX = 20_000;
/** A content's `data`, as the JSON it is stored as (UTF-8 bytes of JSON.stringify). */
export const CONTENT_DATA_MAX_BYTES = 256 * 1024;
/** A project's whole tree, as the bytes of its `GET /projects/<id>` answer. */
export const PROJECT_TREE_MAX_BYTES = 8 * 1024 * 1024;

export const URL_MAX_LENGTH = 2048;
/** CSS values of the style members are short; this only bounds the work spent parsing them. */
export const CSS_VALUE_MAX_LENGTH = 100;

export const TEXT_HTML_MAX_LENGTH = 100_000;
export const IMAGE_ALT_MAX_LENGTH = 500;

export const QUOTE_FIELDS_MAX = 20;
export const QUOTE_FIELD_ID_MAX_LENGTH = 100;
export const QUOTE_FIELD_LABEL_MAX_LENGTH = 200;
export const QUOTE_ITEMS_MAX = 1000;
export const QUOTE_ITEM_ID_MAX_LENGTH = 100;
export const QUOTE_ITEM_TEXT_MAX_LENGTH = 10_000;

/** The deepest legitimate body member is 6 levels down; deeper input is rejected unread. */
export const BODY_DEPTH_MAX = 16;

/** Event streams (`GET /projects/<p>/events`) one account may hold open at once, on all instances. */
export const EVENT_STREAMS_PER_ACCOUNT_MAX = 10;
/** How long a ticket for an event stream stays valid, in seconds (and it is used once). */
export const EVENT_TICKET_TTL_SECONDS = 60;

/** Members of one project, its owner included (`POST /projects/<p>/members`). */
export const MEMBERS_PER_PROJECT_MAX = 100;

/** Operations of one batch, at least one (`POST /projects/<p>/batch`). */
export const BATCH_OPERATIONS_MAX = 100;
/** A path inside a project, as a batch's operation names it. */
export const BATCH_PATH_MAX_LENGTH = 1000;
